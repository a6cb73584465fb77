import { type ApiKey, DEFAULT_KEYS, type KeyRing, NO_WORKING_KEY_TEXT } from '../auth/keys.js';
import type { Scope } from '../auth/scopes.js';
import { ApiError } from '../errors.js';

/** The default table's keys: published, so an answer may name them. */
const PUBLIC_KEYS: ReadonlySet<string> = new Set(DEFAULT_KEYS.map((key) => key.key));

/**
 * Which key a 401 tells the caller to send: always one of this sandbox's table that works, or
 * that there is none, never the default key under a custom table. A published key is named; a
 * key of a custom table is not repeated in an answer to an unknown caller (it may be a team's
 * own), so the message points to /docs, which shows it.
 */
function keyAdvice(keys: KeyRing): { name: string | undefined; text: string } {
  const key = keys.suggested;
  if (key === undefined) return { name: undefined, text: NO_WORKING_KEY_TEXT };
  if (PUBLIC_KEYS.has(key.key)) return { name: key.key, text: `this sandbox's key ${key.key} works` };
  return { name: undefined, text: "this sandbox's reference page, /docs, shows a key that works" };
}

/**
 * The key a request presents, resolved against the key table, or the 401 to answer (its advice:
 * keyAdvice). Returned, not thrown: a 401 is the commonest answer a public sandbox gives, and a
 * throw through the middleware chain cost a fifth of its time (`npm run bench`).
 */
export function authenticate(header: string | undefined, keys: KeyRing): ApiKey | ApiError {
  // Headers come without the spaces and tabs around them (fetch's Headers strip them); any other
  // character around the key is part of what was sent, and no key has it.
  const value = header ?? '';
  const match = /^bearer(?:\s+(.*))?$/i.exec(value);
  const presented = match ? (match[1] ?? '') : value;
  if (value === '' || (match && presented === '')) {
    return new ApiError('api_key_missing', {
      message: `No API key provided. Send it as Authorization: Bearer <key>; ${keyAdvice(keys).text}.`,
    });
  }
  if (!match) {
    return new ApiError('api_key_invalid', {
      message: 'The Authorization header must be Bearer <key>.',
    });
  }
  const key = keys.find(presented);
  if (key === undefined) {
    const advice = keyAdvice(keys);
    // A mistyped key is the commonest 401 after a missing one: it says where a working key is too.
    if (!presented.startsWith('svc_live_'))
      return new ApiError('api_key_invalid', { message: `Invalid API key provided: this sandbox did not issue it; ${advice.text}.` });
    const message =
      keys.suggested === undefined
        ? `Live keys (svc_live_) do not work in the sandbox, and ${advice.text}.`
        : advice.name !== undefined
          ? `Live keys (svc_live_) do not work in the sandbox: use a svc_test_ key of this sandbox, such as ${advice.name}.`
          : `Live keys (svc_live_) do not work in the sandbox: use a svc_test_ key of this sandbox; ${advice.text}.`;
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
