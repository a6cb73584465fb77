// The workerd suites: the Worker of wrangler.toml (src/worker.ts, its Durable Objects and
// bindings) running in the real Workers runtime, driven through SELF.fetch.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import { defineProject } from 'vitest/config';
import { dataModules } from '../data-modules.js';

const wranglerConfig = fileURLToPath(new URL('../../wrangler.toml', import.meta.url));

// wrangler.toml's [assets] directory and the prebuilt sample data (`#prebuilt-sample-data`, the
// Worker's default seed) must exist before the Worker starts; wrangler's [build] command lays
// them out, but the test pool does not run it. A fresh clone's `npm test` then works.
for (const script of ['prebuilt-data.mjs', 'docs-assets.mjs']) {
  execFileSync(process.execPath, [fileURLToPath(new URL(`../../scripts/${script}`, import.meta.url))], { stdio: 'inherit' });
}

export default defineProject({
  plugins: [
    dataModules(),
    cloudflareTest({
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
