import type { ApiKey, KeyRing } from '../auth/keys.js';
import type { Scope } from '../auth/scopes.js';
import { ApiError } from '../errors.js';

/**
 * The key a request presents, resolved against the key table (SANDBOX.md, "Keys and accounts"),
 * or the 401 to answer. Returned, not thrown: a 401 is the commonest answer a public sandbox
 * gives, and a throw through the middleware chain cost a fifth of its time (`npm run bench`).
 */
export function authenticate(header: string | undefined, keys: KeyRing): ApiKey | ApiError {
  const value = header?.trim() ?? '';
  const match = /^bearer(?:\s+(.*))?$/i.exec(value);
  const presented = match ? (match[1] ?? '').trim() : value;
  if (value === '' || (match && presented === '')) {
    return new ApiError('api_key_missing', {
      message: 'No API key provided. Send it as Authorization: Bearer <key>; the public sandbox key is svc_test_sandbox_public.',
    });
  }
  if (!match) {
    return new ApiError('api_key_invalid', {
      message: 'The Authorization header must be Bearer <key>.',
    });
  }
  const key = keys.find(presented);
  if (key === undefined) {
    const message = presented.startsWith('svc_live_')
      ? 'Live keys (svc_live_) do not work in the sandbox: use a svc_test_ key such as svc_test_sandbox_public.'
      : 'Invalid API key provided.';
    return new ApiError('api_key_invalid', { message });
  }
  if (key.revoked) return new ApiError('api_key_invalid', { message: 'This API key has been revoked.' });
  return key;
}

export function requireScope(key: ApiKey, scope: Scope): void {
  if (!key.scopes.has(scope)) {
    throw new ApiError('scope_missing', { message: `This API key lacks the ${scope} scope this endpoint needs.` });
  }
}
