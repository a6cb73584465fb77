import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { dataModules } from './test/data-modules.js';

// Two projects: the Node suites (in-process through app.request) and the workerd suites, which
// run the Worker in the real Workers runtime (test/workers/vitest.config.ts).
export default defineConfig({
  test: {
    // The Worker logs one JSON line per request for its operator (src/worker.ts): thousands in the
    // workerd suites, where they are noise (test/workerd-http/workerd-http.test.ts checks them).
    onConsoleLog: (log) => !log.startsWith('{"method":'),
    projects: [
      'test/workers/vitest.config.ts',
      {
        // The Worker's prebuilt data module imports its bytes as wrangler does (test/prebuilt.test.ts).
        plugins: [dataModules()],
        // The package's own name, as the README's examples import it (test/readme-examples.test.ts).
        resolve: { alias: { 'waste-operations-sandbox': fileURLToPath(new URL('./src/index.ts', import.meta.url)) } },
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/workers/**', 'node_modules/**'],
          environment: 'node',
          globalSetup: ['test/global-build.ts'],
          testTimeout: 30_000,
          // One module graph per worker, not per file: importing the app again for each of 60-odd
          // files cost about 30 s of a run. Nothing a file sets outlives it: stubbed globals and
          // environment are undone after each test, every test builds its own app, and the one
          // module-level cache (list pages) is bounded whatever order the files fill it in.
          isolate: false,
          unstubGlobals: true,
          unstubEnvs: true,
        },
      },
    ],
  },
});
