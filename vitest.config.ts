import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Two projects: the Node suites (in-process through app.request) and the workerd suites, which
// run the Worker in the real Workers runtime (test/workers/vitest.config.ts).
export default defineConfig({
  test: {
    projects: [
      'test/workers/vitest.config.ts',
      {
        // The package's own name, as the README's examples import it (test/readme-examples.test.ts).
        resolve: { alias: { 'waste-operations-sandbox': fileURLToPath(new URL('./src/index.ts', import.meta.url)) } },
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/workers/**', 'node_modules/**'],
          environment: 'node',
          globalSetup: ['test/global-build.ts'],
          testTimeout: 30_000,
        },
      },
    ],
  },
});
