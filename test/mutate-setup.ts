// `npm run mutate` only (vitest.mutate.config.ts): builds every endpoint's schemas as the worker
// loads, before any test, as importing the modules did before schemas were deferred
// (src/schemas/deferred.ts). Stryker counts code run outside a test as static and leaves its
// mutants out (stryker.config.mjs, ignoreStatic); built inside a test instead, a schema would be
// credited to whichever test first asked for it, and each of its mutants run against that one
// test alone. The suites run without this file, building schemas on first use as the sandbox does.
import { ENDPOINTS } from '../src/resources/index.js';

for (const endpoint of ENDPOINTS) {
  endpoint.query?.();
  endpoint.body?.();
  endpoint.success.schema();
}
