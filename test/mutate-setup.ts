// `npm run mutate` only (vitest.mutate.config.ts): every test builds the schemas it uses again.
// The sandbox builds each schema on its first use and keeps it (src/schemas/deferred.ts). In one
// worker running many test files, "first use" would be one test: Stryker would credit the
// schema's contents (its patterns, bounds, messages) to that test alone and run each of their
// mutants against it, or, built before the tests, count them static and leave them out. Here
// `deferred` is wrapped so that what it keeps is forgotten before each test: a schema's contents
// are covered by every test that parses with it, and each of their mutants runs against those.
// The real `deferred` still does the keeping inside a test, so its own code is measured too.
import { beforeEach, vi } from 'vitest';

// Kept on globalThis: with `isolate: false` this file runs again before each test file of a
// worker, but the mock below is made once, by its first run; a module-level counter of a later
// run would never reach the mock, and the schemas would be kept from one test to the next.
const shared = globalThis as { wasteOperationsMutateSetup?: { epoch: number } };
shared.wasteOperationsMutateSetup ??= { epoch: 0 };
const counter = shared.wasteOperationsMutateSetup;

vi.mock('../src/schemas/deferred.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/schemas/deferred.js')>();
  return {
    ...actual,
    deferred<T>(build: () => T): () => T {
      let madeIn = -1;
      let current: () => T = () => build();
      return () => {
        if (madeIn !== counter.epoch) {
          madeIn = counter.epoch;
          current = actual.deferred(build);
        }
        return current();
      };
    },
  };
});

beforeEach(() => {
  counter.epoch += 1;
});
