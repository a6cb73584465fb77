// The Authorization header as the sandbox reads it (reference, "Authentication"; SANDBOX.md, "Keys
// and accounts"): `Bearer <key>`, the scheme in any case; anything else is 401 api_key_invalid.
import { describe, expect, it } from 'vitest';
import { type CallResult, call, PUBLIC_KEY, testApp } from '../helpers.js';
import { expectError, expectStatus } from '../writes/helpers.js';

const app = testApp();
const NOT_BEARER = 'The Authorization header must be Bearer <key>.';

function get(target: ReturnType<typeof testApp>, authorization: string): Promise<CallResult> {
  return call(target, '/v1/jobs?limit=1', { key: null, headers: { Authorization: authorization } });
}

describe('Authorization', () => {
  it.each([
    [`bearer ${PUBLIC_KEY}`],
    [`BEARER ${PUBLIC_KEY}`],
    [`Bearer    ${PUBLIC_KEY}`],
    [`Bearer\t${PUBLIC_KEY}`],
    [`  Bearer ${PUBLIC_KEY}  `],
  ])('takes %j', async (authorization) => {
    expectStatus(await get(app, authorization), 200);
  });

  it.each([[`xBearer ${PUBLIC_KEY}`], [`Token Bearer ${PUBLIC_KEY}`], [`Bearer${PUBLIC_KEY}`], ['Bearerxyz'], [PUBLIC_KEY]])(
    'refuses %j as not a Bearer header: 401 api_key_invalid',
    async (authorization) => {
      const result = await get(app, authorization);
      expectError(result, { status: 401, code: 'api_key_invalid' });
      expect(result.json.error.message).toBe(NOT_BEARER);
    },
  );

  // Only spaces and tabs around a header are not part of it (fetch's Headers drop them): any other
  // character, such as a no-break space, is part of what was sent.
  it('refuses a no-break space before Bearer as not a Bearer header, and one after the key as part of the key', async () => {
    const before = await get(app, `\u00a0Bearer ${PUBLIC_KEY}`);
    expectError(before, { status: 401, code: 'api_key_invalid' });
    expect(before.json.error.message).toBe(NOT_BEARER);
    const after = await get(app, `Bearer ${PUBLIC_KEY}\u00a0`);
    expectError(after, { status: 401, code: 'api_key_invalid' });
    expect(after.json.error.message).toBe(
      "Invalid API key provided: this sandbox did not issue it; this sandbox's key svc_test_sandbox_public works.",
    );
  });

  it.each([['Bearer'], ['bearer   ']])('answers %j, Bearer with no key, 401 api_key_missing', async (authorization) => {
    expectError(await get(app, authorization), { status: 401, code: 'api_key_missing' });
  });

  it('with no key that can be used, tells a live key only that live keys do not work and there is no key', async () => {
    const dead = testApp({ SANDBOX_KEYS: JSON.stringify([{ key: 'svc_test_team_gone', account: 'A', scopes: '*', revoked: true }]) });
    const result = await get(dead, 'Bearer svc_live_0123456789abcdef');
    expectError(result, { status: 401, code: 'api_key_invalid' });
    expect(result.json.error.message).toBe(
      "Live keys (svc_live_) do not work in the sandbox, and no key of this sandbox's key table can be used (every key is revoked or has no scope).",
    );
  });
});
