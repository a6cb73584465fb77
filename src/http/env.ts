import type { ApiKey } from '../auth/keys.js';
import type { AccountStore } from '../data/store.js';

/** What the middleware chain hands on to the routes, in the order it is set. */
export interface SandboxVariables {
  requestId: string;
  key: ApiKey;
  account: AccountStore;
}

export interface SandboxEnv {
  Variables: SandboxVariables;
}
