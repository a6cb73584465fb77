import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The Node suites as StrykerJS runs them (`npm run mutate`, stryker.config.mjs): only the files
// that drive the code in-process, since a mutant lives in the sources Stryker copied and not in a
// built dist/, a browser or workerd. A test file that starts a process, a browser or Miniflare
// (or uses the helpers that do) is left out, whoever adds it. MUTATE_TESTS narrows the run to
// some files (comma-separated globs) while one folder is measured.
const OUT_OF_PROCESS = /node:child_process|\.\/cli-server\.js|playwright-core|miniflare/;

const outOfProcess = (readdirSync('test', { recursive: true }) as string[])
  .map((name) => `test/${name.replaceAll('\\', '/')}`)
  .filter((path) => path.endsWith('.test.ts') && !path.startsWith('test/workers/'))
  .filter((path) => OUT_OF_PROCESS.test(readFileSync(path, 'utf8')));

export default defineConfig({
  resolve: { alias: { 'waste-operations-sandbox': fileURLToPath(new URL('./src/index.ts', import.meta.url)) } },
  test: {
    include: process.env.MUTATE_TESTS?.split(',') ?? ['test/**/*.test.ts'],
    // test/start-up-schemas.test.ts loads the sources again (vi.resetModules) to watch a start:
    // every module-level mutant would then run inside a test, no longer static, and survive, as
    // no test reads what a module-level literal only names (an operationId, a summary).
    exclude: ['test/workers/**', 'node_modules/**', 'test/start-up-schemas.test.ts', ...outOfProcess],
    environment: 'node',
    // One module graph per worker, as the node project runs (vitest.config.ts): a mutant is
    // switched on at run time (Stryker's mutant schemata), so the sources need not load again for
    // each, and loading them per test file is most of a run's time.
    isolate: false,
    // Every schema built before the tests, so its construction stays a static mutant, as before
    // schemas were deferred (test/mutate-setup.ts).
    setupFiles: ['test/mutate-setup.ts'],
    testTimeout: 30_000,
  },
});
