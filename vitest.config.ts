import { defineConfig } from 'vitest/config';

// Two projects: the Node suites (in-process through app.request) and the workerd suites, which
// run the Worker in the real Workers runtime (test/workers/vitest.config.ts).
export default defineConfig({
  test: {
    projects: [
      'test/workers/vitest.config.ts',
      {
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/workers/**', 'node_modules/**'],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
    ],
  },
});
