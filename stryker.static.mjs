// `npm run mutate:static -- --mutate <files>` (docs/operations.md, "Static mutants"): the same run
// as stryker.config.mjs, with the static mutants run too. A static mutant is one only a module's
// loading reaches (an endpoint's operationId, a module constant, a table built as the module
// loads): Stryker runs the whole suite for each, with the sources loaded again, a few seconds
// when a test fails at once and about two minutes when none does, so they are run by parts,
// not on every `npm run mutate`. Their results go to the same .stryker/incremental.json, where
// `npm run mutate` keeps each killed one as long as the test that killed it does not change.
import base from './stryker.config.mjs';

export default {
  ...base,
  ignoreStatic: false,
};
