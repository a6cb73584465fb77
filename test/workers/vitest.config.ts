// The workerd suites: the Worker of wrangler.toml (src/worker.ts, its Durable Objects and
// bindings) running in the real Workers runtime, driven through SELF.fetch.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import { defineProject } from 'vitest/config';
import { dataModules } from '../data-modules.js';

const wranglerConfig = fileURLToPath(new URL('../../wrangler.toml', import.meta.url));

// wrangler.toml's [assets] directory and the prebuilt sample data (`#prebuilt-sample-data`, the
// Worker's default seed) must exist before the Worker starts; wrangler's [build] command makes
// them (and the bundle that is wrangler.toml's main), but the test pool does not run it. A fresh
// clone's `npm test` then works.
execFileSync(process.execPath, [fileURLToPath(new URL('../../scripts/worker-build.mjs', import.meta.url))], { stdio: 'inherit' });

export default defineProject({
  plugins: [
    dataModules(),
    cloudflareTest({
      // The sources, compiled by Vite, rather than wrangler.toml's main (their esbuild bundle):
      // the pool loads modules that a wrangler rule names by a path it gets wrong outside the
      // project folder (it joins the root to Vite's /@fs/ path). test/worker-parity.test.ts runs
      // the bundle as deployed.
      main: fileURLToPath(new URL('../../src/worker.ts', import.meta.url)),
      wrangler: { configPath: wranglerConfig },
      // The limit SELF.fetch sees, pinned to SANDBOX.md's default whatever wrangler.toml's [vars]
      // say. Tests that need another (a small one, or "off") hand the Worker's entry point their
      // own variables: test/workers/support/worker.ts.
      miniflare: { bindings: { SANDBOX_RATE_LIMIT: '25' } },
    }),
  ],
  test: {
    name: 'workers',
    include: ['**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
