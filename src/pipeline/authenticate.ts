// Step 1 of the order of checks: the key (401 `api_key_missing` / `api_key_invalid`, SANDBOX.md
// "Keys and accounts"), then its account's records for every later step.
import type { ApiKey, KeyRing } from '../auth/keys.js';
import type { AccountStore } from '../data/store.js';
import { ApiError } from '../errors.js';
import { authenticate } from '../http/auth.js';
import { errorResponse, type Responder } from '../http/reply.js';
import type { Step } from './step.js';

export function requireKey(keys: KeyRing, accountOf: (account: ApiKey['account']) => AccountStore, respond: Responder): Step {
  return (c, next) => {
    const key = authenticate(c.req.header('Authorization'), keys);
    // Returned, not thrown: a 401, the commonest answer a public sandbox gives, skips the cost of
    // an exception.
    if (key instanceof ApiError) return errorResponse(respond, c, key);
    c.set('key', key);
    c.set('account', accountOf(key.account));
    return next();
  };
}
