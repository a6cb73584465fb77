// Every /v1 request draws its random fault as it arrives, before the rate limit and the key
// (none unless SANDBOX_FAULTS is set): the same sequence of /v1 requests to a fresh process then
// gets the same faults, whatever each request's fate (SANDBOX.md, "Failures on demand").
import type { Faults } from '../faults/index.js';
import type { Step } from './step.js';

export function drawRandomFault(faults: Faults): Step {
  return (c, next) => {
    c.set('drawn', faults.draw());
    return next();
  };
}
