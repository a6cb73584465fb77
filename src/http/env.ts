import type { ApiKey } from '../auth/keys.js';
import type { AccountStore } from '../data/store.js';

/** What the middleware chain hands on to the routes, in the order it is set. */
export interface SandboxVariables {
  /** Set on first use by requestId(c). */
  requestId: string | undefined;
  key: ApiKey;
  account: AccountStore;
}

export interface SandboxEnv {
  Variables: SandboxVariables;
}
