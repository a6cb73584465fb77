// Strangers on a shared key, on Workers (issue #35; SANDBOX.md, "Shared keys" and "The client's
// address"): Cloudflare's edge names each client by CF-Connecting-IP, and on a public key each
// address has its own Idempotency-Key results (their Durable Objects) and rate-limit bucket.
// test/worker-tenants.test.ts sends the same through workerd's real HTTP server.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { requestFingerprint } from '../../src/idempotency/fingerprint.js';
import { idempotencyObjectNameOf, sha256Hex } from './support/object-names.js';
import { type CallOptions, type CallResult, call, errorOf, PUBLIC_KEY, uniqueKey } from './support/worker.js';

const STRANGERS = ['198.51.100.2', '198.51.100.3', '2001:db8::4'] as const;
const [FIRST, SECOND, THIRD] = STRANGERS;
/** The README's try-it example, a webhook endpoint. */
const TRY_IT = { url: 'https://example.com/hooks', events: ['*'] };
const OTHER_BODY = { url: 'https://example.com/other-hooks', events: ['job.created'] };

function create(from: string, idempotencyKey: string, body: unknown = TRY_IT, options: CallOptions = {}): Promise<CallResult> {
  return call('/v1/webhook_endpoints', {
    method: 'POST',
    body,
    ...options,
    headers: { 'Idempotency-Key': idempotencyKey, 'CF-Connecting-IP': from },
  });
}

function expectFresh(result: CallResult, what: string): void {
  expect(result.status, `${what}: ${result.text}`).toBe(201);
  expect(result.headers.get('Idempotent-Replayed'), what).toBeNull();
}

describe('three strangers on the public key (CF-Connecting-IP)', () => {
  it('never replay or conflict with each other; a retry from the same address replays', async () => {
    const key = uniqueKey('try-it');
    const first = await create(FIRST, key);
    expectFresh(first, 'the first stranger');
    expectFresh(await create(SECOND, key, OTHER_BODY), 'the second stranger, another body');
    const third = await create(THIRD, key);
    expectFresh(third, 'the third stranger, the same body');
    expect((third.json as { secret: string }).secret).not.toBe((first.json as { secret: string }).secret);

    const retry = await create(FIRST, key);
    expect(retry.headers.get('Idempotent-Replayed')).toBe('true');
    expect(retry.text).toBe(first.text);
    const conflict = await create(FIRST, key, OTHER_BODY);
    expect(conflict.status, conflict.text).toBe(409);
    expect(errorOf(conflict)).toMatchObject({ code: 'idempotency_conflict' });
  });

  it("one stranger's request in flight is no 409 for another", async () => {
    const key = uniqueKey('in-flight');
    // The first stranger's request is running: its Durable Object holds the claim.
    const theirs = env.IDEMPOTENCY.getByName(await idempotencyObjectNameOf([PUBLIC_KEY, FIRST, key]));
    const fingerprint = requestFingerprint('POST', '/v1/webhook_endpoints', TRY_IT);
    expect(await theirs.claim(await sha256Hex(fingerprint))).toEqual({ state: 'new' });
    const own = await create(FIRST, key);
    expect(own.status, own.text).toBe(409);
    expect(errorOf(own).message).toMatch(/still being processed/);
    expectFresh(await create(SECOND, key), 'another stranger, meanwhile');
  });

  it('the address never changes an answer: a pinned create is the same bytes from any address', async () => {
    const key = uniqueKey('pinned');
    const answers = await Promise.all(
      STRANGERS.map((from) =>
        call('/v1/webhook_endpoints', {
          method: 'POST',
          body: TRY_IT,
          headers: { 'Idempotency-Key': key, 'CF-Connecting-IP': from, 'Sandbox-Clock': '2026-03-02T17:00:00Z' },
        }),
      ),
    );
    for (const answer of answers) expectFresh(answer, 'a pinned create');
    expect(new Set(answers.map((answer) => answer.text)).size).toBe(1);
    expect(new Set(answers.map((answer) => answer.headers.get('Request-Id'))).size).toBe(1);
  });

  it('each address has its own rate-limit bucket', async () => {
    // A key table of its own, so that no other test's requests share these buckets.
    const vars = {
      SANDBOX_RATE_LIMIT: '1',
      SANDBOX_KEYS: JSON.stringify([{ key: 'svc_test_rate_strangers', account: 'A', scopes: '*', shared: true }]),
    };
    const get = (from: string) => call('/v1/jobs?limit=1', { key: 'svc_test_rate_strangers', vars, headers: { 'CF-Connecting-IP': from } });
    let spent: CallResult | undefined;
    for (let tries = 0; tries < 20 && spent === undefined; tries++) {
      const answer = await get(FIRST);
      if (answer.status === 429) spent = answer;
    }
    expect(spent === undefined ? undefined : errorOf(spent).code).toBe('rate_limited');
    for (const from of [SECOND, THIRD]) {
      const answer = await get(from);
      expect(answer.status, `${from}: ${answer.text}`).toBe(200);
    }
  });
});

describe("a self-hoster's own key", () => {
  const KEYS = JSON.stringify([
    { key: 'svc_test_team_ci', account: 'A', scopes: '*' },
    { key: 'svc_test_team_workshop', account: 'A', scopes: '*', shared: true },
  ]);
  const as = (apiKey: string): CallOptions => ({ key: apiKey, vars: { SANDBOX_KEYS: KEYS, SANDBOX_RATE_LIMIT: 'off' } });

  it('replays across addresses (a CI job retried from another runner), and conflicts across them', async () => {
    const key = uniqueKey('ci');
    const first = await create(FIRST, key, TRY_IT, as('svc_test_team_ci'));
    expectFresh(first, 'the first runner');
    const retry = await create(SECOND, key, TRY_IT, as('svc_test_team_ci'));
    expect(retry.headers.get('Idempotent-Replayed')).toBe('true');
    expect(retry.text).toBe(first.text);
    expect((await create(THIRD, key, OTHER_BODY, as('svc_test_team_ci'))).status).toBe(409);
  });

  it('an entry with "shared": true keeps them per address', async () => {
    const key = uniqueKey('workshop');
    expectFresh(await create(FIRST, key, TRY_IT, as('svc_test_team_workshop')), 'the first attendee');
    expectFresh(await create(SECOND, key, TRY_IT, as('svc_test_team_workshop')), 'another attendee');
    expect((await create(FIRST, key, TRY_IT, as('svc_test_team_workshop'))).headers.get('Idempotent-Replayed')).toBe('true');
  });
});
