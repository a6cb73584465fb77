// Sandbox-Clock, right after the key (SANDBOX.md, "Pinned clock"): a value that is not an RFC 3339
// UTC timestamp with seconds is 400 `parameter_invalid`. Checked before Sandbox-Simulate, since a
// simulated failure's request ID is derived from the pinned clock.
import { checkClockHeader } from '../http/clock.js';
import type { Step } from './step.js';

export function clockHeader(): Step {
  return (c, next) => {
    checkClockHeader(c);
    return next();
  };
}
