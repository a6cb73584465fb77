import type { ApiKey } from '../auth/keys.js';
import type { Mint } from '../clock/mint.js';
import type { AccountStore } from '../data/store.js';
import type { FaultPlan } from '../faults/plan.js';

/** What the middleware chain hands on to the routes, in the order it is set. */
export interface SandboxVariables {
  /** Set on first use by requestId(c). */
  requestId: string | undefined;
  /** The request's clock and the values derived from it, set on first use (src/http/clock.ts). */
  mint: Mint | undefined;
  key: ApiKey;
  account: AccountStore;
  /** The body as the JSON object a write read, for values derived from the request. */
  body: Record<string, unknown> | undefined;
  /** The request's faults (Sandbox-Simulate or a random one), once its key is known (src/faults). */
  fault: FaultPlan | undefined;
}

export interface SandboxEnv {
  Variables: SandboxVariables;
}
