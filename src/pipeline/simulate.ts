// Sandbox-Simulate, or the request's random fault, once its key is known (SANDBOX.md, "Failures on
// demand"): a value that cannot be read is 400 `parameter_invalid`; `rate_limited` and `api_error`
// answer now, before the request is read; the others are planned here and act on the answer of a
// write that succeeded (src/faults, through faults.wrap at the end of the app).
import type { Faults } from '../faults/index.js';
import { SIMULATE_HEADER } from '../faults/simulate.js';
import { headerText } from '../http/header-text.js';
import { errorResponse, type Responder } from '../http/reply.js';
import type { Step } from './step.js';

export function simulate(faults: Faults, respond: Responder): Step {
  return (c, next) => {
    const header = c.req.header(SIMULATE_HEADER);
    // As sent: a value past ASCII (never a valid one) is quoted in its 400 as the client wrote it.
    const sent = header === undefined ? undefined : headerText(header);
    // No header and no random fault: no plan (begin returns at once).
    const plan = faults.begin(c.req.raw, sent, c.get('drawn'), (error) => errorResponse(respond, c, error));
    if (plan !== undefined) {
      c.set('fault', plan);
      faults.actNow(plan, c.req.method);
    }
    return next();
  };
}
