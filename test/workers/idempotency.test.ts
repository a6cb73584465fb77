// Idempotency-Key on Workers (SANDBOX.md, "Idempotency"): replays and conflicts through the
// Worker, with the state held by the key's Durable Object, not by the isolate that answered.
import { listDurableObjectIds, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { requestFingerprint } from '../../src/idempotency/fingerprint.js';
import { MemoryIdempotencyStore } from '../../src/idempotency/memory-store.js';
import type { IdempotencyStore } from '../../src/idempotency/store.js';
import { IdempotencyObject, type IdempotencyRow } from '../../src/worker/idempotency-object.js';
import { DurableObjectIdempotencyStore } from '../../src/worker/idempotency-store.js';
import { idempotencyObjectNameOf, sha256Hex } from './support/object-names.js';
import { call, errorOf, JOBS_KEY, PUBLIC_KEY, uniqueKey } from './support/worker.js';

/** SANDBOX.md, "Idempotency": a key is kept 24 hours. */
const KEPT_MS = 24 * 60 * 60 * 1000;
/** docs/workers.md: a claim whose request never finished stops blocking its key after 60 seconds. */
const LEASE_MS = 60 * 1000;

interface SampleSite {
  id: string;
  client: string;
}

let site: SampleSite;

beforeAll(async () => {
  const sites = await call('/v1/sites?limit=1');
  expect(sites.status, sites.text).toBe(200);
  [site] = (sites.json as { data: [SampleSite] }).data;
});

/** A valid site address (reference, "Sites"). */
const ADDRESS = { line1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701' };

function jobBody(type = 'ci_pickup') {
  return { type, client: site.client, site: site.id, scheduled_for: '2026-06-01', window: { start: '08:00', end: '12:00' } };
}

/** The address Cloudflare's edge names this suite's client by: the public keys are shared, so it counts. */
const CLIENT = { 'CF-Connecting-IP': '203.0.113.50' };

function postJob(idempotencyKey: string, body: unknown, key = PUBLIC_KEY, client = CLIENT) {
  return call('/v1/jobs', { method: 'POST', key, body, headers: { 'Idempotency-Key': idempotencyKey, ...client } });
}

/**
 * The Durable Object that holds an Idempotency-Key of a shared API key for a client's address
 * (named as docs/workers.md says; test/workers/tenants.test.ts checks the scoping itself).
 */
async function objectOf(apiKey: string, idempotencyKey: string, client = CLIENT): Promise<DurableObjectStub<IdempotencyObject>> {
  return env.IDEMPOTENCY.getByName(await idempotencyObjectNameOf([apiKey, client['CF-Connecting-IP'], idempotencyKey]));
}

async function rowsOf(stub: DurableObjectStub<IdempotencyObject>): Promise<IdempotencyRow[]> {
  return runInDurableObject(stub, (_instance, state) => {
    const table = state.storage.sql.exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'idempotency'").toArray();
    if (table.length === 0) return [];
    return state.storage.sql.exec<IdempotencyRow>('SELECT fingerprint, status, body, expires_at FROM idempotency').toArray();
  });
}

describe('POST with an Idempotency-Key through the Worker', () => {
  it('replays the stored status and body with Idempotent-Replayed: true', async () => {
    const key = uniqueKey('replay');
    const first = await postJob(key, jobBody());
    expect(first.status, first.text).toBe(201);
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();

    // Key order does not change the request (SANDBOX.md: "key order ignored").
    const { window, scheduled_for, site: siteId, client, type } = jobBody();
    const again = await postJob(key, { window, scheduled_for, site: siteId, client, type });
    expect(again.status, again.text).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    // The replay is a new response: its own Request-Id, while the body keeps the first request's.
    expect(again.headers.get('Request-Id')).not.toBe(first.headers.get('Request-Id'));
  });

  it('answers 409 idempotency_conflict for the same key with another body or path', async () => {
    const key = uniqueKey('conflict');
    expect((await postJob(key, jobBody('ci_pickup'))).status).toBe(201);

    const otherBody = await postJob(key, jobBody('lab_pack'));
    expect(otherBody.status, otherBody.text).toBe(409);
    expect(errorOf(otherBody)).toMatchObject({ type: 'invalid_request_error', code: 'idempotency_conflict', param: 'Idempotency-Key' });

    // The idempotency check comes before validation (SANDBOX.md, "Order of checks"), so the
    // body of the other endpoint does not matter.
    const otherPath = await call('/v1/clients', { method: 'POST', body: {}, headers: { 'Idempotency-Key': key, ...CLIENT } });
    expect(otherPath.status, otherPath.text).toBe(409);
    expect(errorOf(otherPath)).toMatchObject({ code: 'idempotency_conflict', param: 'Idempotency-Key' });
  });

  it('keeps keys per API key: another key with the same Idempotency-Key runs anew', async () => {
    const key = uniqueKey('scoped');
    const mine = await postJob(key, jobBody());
    const theirs = await postJob(key, jobBody(), JOBS_KEY);
    expect(theirs.status, theirs.text).toBe(201);
    expect(theirs.headers.get('Idempotent-Replayed')).toBeNull();
    expect((theirs.json as { id: string }).id).not.toBe((mine.json as { id: string }).id);
  });

  it('holds the result in the Durable Object of the key, for 24 hours', async () => {
    const key = uniqueKey('stored');
    const before = await listDurableObjectIds(env.IDEMPOTENCY);
    const first = await postJob(key, jobBody());
    expect(first.status, first.text).toBe(201);

    const stub = await objectOf(PUBLIC_KEY, key);
    const after = await listDurableObjectIds(env.IDEMPOTENCY);
    expect(before.map((id) => id.toString())).not.toContain(stub.id.toString());
    expect(after.map((id) => id.toString())).toContain(stub.id.toString());

    const rows = await rowsOf(stub);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      fingerprint: await sha256Hex(requestFingerprint('POST', '/v1/jobs', jobBody())),
      status: 201,
      body: first.text,
    });
    const { expires_at: expiresAt } = rows[0] as IdempotencyRow;
    expect(Math.abs(expiresAt - (Date.now() + KEPT_MS))).toBeLessThan(60_000);
    const alarm = await runInDurableObject(stub, (_instance, state) => state.storage.getAlarm());
    expect(alarm).toBe(expiresAt);
  });

  it('keeps a 64-character digest of a large body, not the body, and still tells one byte apart', async () => {
    // Notes close to the 1 MiB limit: only the stored answer holds them in full.
    const large = (notes: string) => ({ client: site.client, name: 'Yard', access_notes: notes, address: ADDRESS });
    const key = uniqueKey('large');
    const notes = 'n'.repeat(900_000);
    const first = await call('/v1/sites', { method: 'POST', body: large(notes), headers: { 'Idempotency-Key': key, ...CLIENT } });
    expect(first.status, first.text.slice(0, 300)).toBe(201);

    const [row] = await rowsOf(await objectOf(PUBLIC_KEY, key));
    expect(row?.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.body).toBe(first.text);

    const again = await call('/v1/sites', { method: 'POST', body: large(notes), headers: { 'Idempotency-Key': key, ...CLIENT } });
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.text).toBe(first.text);
    const oneByteOff = await call('/v1/sites', {
      method: 'POST',
      body: large(`${notes.slice(1)}m`),
      headers: { 'Idempotency-Key': key, ...CLIENT },
    });
    expect(oneByteOff.status, oneByteOff.text).toBe(409);
    expect(errorOf(oneByteOff)).toMatchObject({ code: 'idempotency_conflict', param: 'Idempotency-Key' });
  });

  it('replays to another instance of the app', async () => {
    const key = uniqueKey('shared');
    const first = await postJob(key, jobBody());
    // Other variables give another app (its own stores and limiter) in this isolate: the stand-in
    // for a retry that reaches another isolate or location.
    const elsewhere = await call('/v1/jobs', {
      method: 'POST',
      body: jobBody(),
      headers: { 'Idempotency-Key': key, ...CLIENT },
      vars: { SANDBOX_RATE_LIMIT: '1000' },
    });
    expect(elsewhere.status, elsewhere.text).toBe(201);
    expect(elsewhere.text).toBe(first.text);
    expect(elsewhere.headers.get('Idempotent-Replayed')).toBe('true');
  });

  it('answers 409 while the first request with the key is still running', async () => {
    const key = uniqueKey('in-flight');
    const stub = await objectOf(PUBLIC_KEY, key);
    expect(await stub.claim(await sha256Hex(requestFingerprint('POST', '/v1/jobs', jobBody())))).toEqual({ state: 'new' });
    const second = await postJob(key, jobBody());
    expect(second.status, second.text).toBe(409);
    expect(errorOf(second)).toMatchObject({ code: 'idempotency_conflict', param: 'Idempotency-Key' });
    expect(errorOf(second).message).toMatch(/still being processed/);
  });

  it('answers only once the answer is stored: one its object could not store is a 500, not the success', async () => {
    // The key's object fails to store the answer (it runs in this isolate, so its class can be spied on).
    vi.spyOn(IdempotencyObject.prototype, 'complete').mockRejectedValue(new Error('storage unavailable'));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const result = await postJob(uniqueKey('unstored'), jobBody());
      expect(result.status, result.text).toBe(500);
      expect(errorOf(result)).toMatchObject({ type: 'api_error', code: 'api_error' });
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('does not store a 400: the retry with a fixed body runs', async () => {
    const key = uniqueKey('invalid');
    const invalid = await postJob(key, { ...jobBody(), type: 'not_a_type' });
    expect(invalid.status, invalid.text).toBe(400);
    expect(await rowsOf(await objectOf(PUBLIC_KEY, key))).toEqual([]);

    const fixed = await postJob(key, jobBody());
    expect(fixed.status, fixed.text).toBe(201);
    expect(fixed.headers.get('Idempotent-Replayed')).toBeNull();
  });

  it('stores a 404 once validation passed, and replays it', async () => {
    const key = uniqueKey('missing');
    const body = { ...jobBody(), client: 'cli_00000000000000' };
    const first = await postJob(key, body);
    expect(first.status, first.text).toBe(404);
    const again = await postJob(key, body);
    expect(again.status).toBe(404);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
  });

  it('refuses a key over 255 characters with 400 naming Idempotency-Key', async () => {
    const result = await postJob('k'.repeat(256), jobBody());
    expect(result.status, result.text).toBe(400);
    expect(errorOf(result)).toMatchObject({ code: 'parameter_invalid', param: 'Idempotency-Key' });
  });
});

describe('retention', () => {
  it('an expired key runs anew, and the alarm deletes the object storage', async () => {
    const key = uniqueKey('expired');
    const first = await postJob(key, jobBody());
    const stub = await objectOf(PUBLIC_KEY, key);
    // 24 hours later, as far as the object can tell.
    await runInDurableObject(stub, (_instance, state) => {
      state.storage.sql.exec('UPDATE idempotency SET expires_at = ?', Date.now() - 1);
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await rowsOf(stub)).toEqual([]);

    const later = await postJob(key, jobBody());
    expect(later.status, later.text).toBe(201);
    expect(later.headers.get('Idempotent-Replayed')).toBeNull();
    expect(later.text).not.toBe(first.text);
  });

  it('an alarm that fires before a later expiry reschedules instead of deleting', async () => {
    const key = uniqueKey('rescheduled');
    await postJob(key, jobBody());
    const stub = await objectOf(PUBLIC_KEY, key);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await rowsOf(stub)).toHaveLength(1);
    expect(await runInDurableObject(stub, (_instance, state) => state.storage.getAlarm())).not.toBeNull();
  });
});

describe('on a clock the test moves', () => {
  // Date is faked in this isolate, where the Worker's Durable Objects run too: the object reads the
  // test's time, so a lease and a day pass at once, to the millisecond. Alarms keep the platform's
  // real clock (runDurableObjectAlarm runs one now), so the clock starts at the real time and an
  // alarm it sets is in the future for both. Each test has a client address of its own: a bucket
  // that saw the clock jump ahead would refuse requests once it is real again.
  afterEach(() => {
    vi.useRealTimers();
  });

  function freezeClock(): number {
    const now = vi.getRealSystemTime();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(now);
    return now;
  }

  function newClient(): { 'CF-Connecting-IP': string } {
    const groups = Array.from(crypto.getRandomValues(new Uint16Array(6)), (group) => group.toString(16));
    return { 'CF-Connecting-IP': `2001:db8:${groups.join(':')}` };
  }

  const alarmOf = (stub: DurableObjectStub<IdempotencyObject>) => runInDurableObject(stub, (_instance, state) => state.storage.getAlarm());

  it('a claim whose request never finished blocks its key for 60 seconds, then the key runs anew', async () => {
    const client = newClient();
    const key = uniqueKey('lease');
    const claimedAt = freezeClock();
    // The request that claimed the key vanished (its isolate killed mid-request): nothing will
    // complete or release the claim.
    const stub = await objectOf(PUBLIC_KEY, key, client);
    expect(await stub.claim(await sha256Hex(requestFingerprint('POST', '/v1/jobs', jobBody())))).toEqual({ state: 'new' });

    vi.setSystemTime(claimedAt + LEASE_MS - 1);
    const blocked = await postJob(key, jobBody(), PUBLIC_KEY, client);
    expect(blocked.status, blocked.text).toBe(409);
    expect(errorOf(blocked)).toMatchObject({ code: 'idempotency_conflict', param: 'Idempotency-Key' });
    expect(errorOf(blocked).message).toMatch(/still being processed/);

    vi.setSystemTime(claimedAt + LEASE_MS);
    const anew = await postJob(key, jobBody(), PUBLIC_KEY, client);
    expect(anew.status, anew.text).toBe(201);
    expect(anew.headers.get('Idempotent-Replayed')).toBeNull();
    // Its answer is the key's now, kept 24 hours from then.
    expect(await rowsOf(stub)).toEqual([
      {
        fingerprint: await sha256Hex(requestFingerprint('POST', '/v1/jobs', jobBody())),
        status: 201,
        body: anew.text,
        expires_at: claimedAt + LEASE_MS + KEPT_MS,
      },
    ]);
    expect(await alarmOf(stub)).toBe(claimedAt + LEASE_MS + KEPT_MS);
  });

  it("the claim's alarm deletes it at the lease's end, and an alarm a millisecond early sets itself again", async () => {
    const claimedAt = freezeClock();
    const stub = await objectOf(PUBLIC_KEY, uniqueKey('lease-alarm'), newClient());
    expect(await stub.claim(await sha256Hex('a fingerprint'))).toEqual({ state: 'new' });
    expect(await alarmOf(stub)).toBe(claimedAt + LEASE_MS);

    vi.setSystemTime(claimedAt + LEASE_MS - 1);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await rowsOf(stub)).toHaveLength(1);
    expect(await alarmOf(stub)).toBe(claimedAt + LEASE_MS);

    vi.setSystemTime(claimedAt + LEASE_MS);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await rowsOf(stub)).toEqual([]);
    expect(await alarmOf(stub)).toBeNull();
  });

  it('keeps an answer 24 hours: replayed a millisecond before, run anew at 24 hours', async () => {
    const client = newClient();
    const key = uniqueKey('kept');
    const answeredAt = freezeClock();
    const first = await postJob(key, jobBody(), PUBLIC_KEY, client);
    expect(first.status, first.text).toBe(201);
    const stub = await objectOf(PUBLIC_KEY, key, client);
    expect((await rowsOf(stub)).map((row) => row.expires_at)).toEqual([answeredAt + KEPT_MS]);
    expect(await alarmOf(stub)).toBe(answeredAt + KEPT_MS);

    vi.setSystemTime(answeredAt + KEPT_MS - 1);
    const replay = await postJob(key, jobBody(), PUBLIC_KEY, client);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(replay.text).toBe(first.text);

    vi.setSystemTime(answeredAt + KEPT_MS);
    const anew = await postJob(key, jobBody(), PUBLIC_KEY, client);
    expect(anew.status, anew.text).toBe(201);
    expect(anew.headers.get('Idempotent-Replayed')).toBeNull();
    expect(anew.text).not.toBe(first.text);
  });
});

describe('the Durable Object store answers as the Node store', () => {
  /** One script of claims, completions and releases, run against a store; returns every answer. */
  async function script(store: IdempotencyStore, prefix: string): Promise<unknown[]> {
    const a = `${prefix}-a`;
    const b = `${prefix}-b`;
    const answers: unknown[] = [];
    answers.push(await store.claim(a, 'fp-1'));
    answers.push(await store.claim(a, 'fp-1'));
    answers.push(await store.claim(a, 'fp-2'));
    await store.complete(a, 'fp-1', { status: 201, body: '{"ok":true}' });
    answers.push(await store.claim(a, 'fp-1'));
    answers.push(await store.claim(a, 'fp-2'));
    answers.push(await store.claim(b, 'fp-1'));
    await store.release(b);
    answers.push(await store.claim(b, 'fp-2'));
    await store.complete(b, 'fp-2', { status: 422, body: '{"error":{}}' });
    answers.push(await store.claim(b, 'fp-2'));
    await store.release(b);
    answers.push(await store.claim(b, 'fp-1'));
    return answers;
  }

  it('gives the same answer to every step', async () => {
    const prefix = uniqueKey('contract');
    const node = await script(new MemoryIdempotencyStore(), prefix);
    const workers = await script(new DurableObjectIdempotencyStore(env.IDEMPOTENCY), prefix);
    expect(workers).toEqual(node);
    expect(node.map((answer) => (answer as { state: string }).state)).toEqual([
      'new',
      'in_flight',
      'mismatch',
      'replay',
      'mismatch',
      'new',
      'new',
      'replay',
      'new',
    ]);
  });
});
