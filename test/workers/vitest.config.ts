// The workerd suites: the Worker of wrangler.toml (src/worker.ts, its Durable Objects and
// bindings) running in the real Workers runtime, driven through SELF.fetch.
import { fileURLToPath } from 'node:url';
import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import { defineProject } from 'vitest/config';

const wranglerConfig = fileURLToPath(new URL('../../wrangler.toml', import.meta.url));

export default defineProject({
  plugins: [
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
