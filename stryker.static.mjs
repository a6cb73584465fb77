// `npm run mutate:static -- --mutate <files>` (docs/operations.md, "Static mutants"): the same run
// as stryker.config.mjs, with the static mutants run too. A static mutant is one only a module's
// loading reaches (an endpoint's operationId, a module constant, a table built as the module
// loads): Stryker runs the whole suite for each, with the sources loaded again, a few seconds
// when a test fails at once and about two minutes when none does, so they are run by parts,
// not on every `npm run mutate`. Their results go to the same .stryker/incremental.json; a
// later `npm run mutate` may count them as ignored again, so a part's figures come from its report.
import base from './stryker.config.mjs';

export default {
  ...base,
  ignoreStatic: false,
};
