import type { ApiKey } from '../auth/keys.js';
import type { Mint } from '../clock/mint.js';
import type { AccountStore } from '../data/store.js';
import type { FaultPlan } from '../faults/plan.js';
import type { RandomFault } from '../faults/random.js';
import type { Reply } from './endpoint.js';

/** What the middleware chain hands on to the routes, in the order it is set. */
export interface SandboxVariables {
  /** Set on first use by requestId(c). */
  requestId: string | undefined;
  /** The request's clock and the values derived from it, set on first use (src/http/clock.ts). */
  mint: Mint | undefined;
  /** The random fault the request drew as it arrived, if SANDBOX_FAULTS gave it one. */
  drawn: RandomFault | undefined;
  key: ApiKey;
  account: AccountStore;
  /** The request's faults (Sandbox-Simulate or a random one), once its key is known (src/faults). */
  fault: FaultPlan | undefined;
  /** The query as sent, single values; null when there is none. */
  query: Record<string, string> | null;
  /** The body as the JSON object a write read, for the Idempotency-Key and values derived from the request. */
  body: Record<string, unknown> | undefined;
  /** The query and body as the endpoint's schemas parsed them. */
  input: { query: unknown; body: unknown };
  /** The endpoint's answer, once it answered (not on a replay or an error). */
  reply: Reply | undefined;
}

export interface SandboxEnv {
  Variables: SandboxVariables;
}
