// The Idempotency-Key store of Node (SANDBOX.md, "Idempotency"; docs/operations.md, "Memory
// bounds"): what "the same body" means, keys kept 24 hours and not a millisecond more, and the
// store's weight counted as documented (keys, request fingerprints and stored bodies as UTF-16),
// through HTTP and on the store itself.
import { describe, expect, it } from 'vitest';
import { MemoryIdempotencyStore } from '../src/idempotency/memory-store.js';
import { call, testApp } from './helpers.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const PINNED = { 'Sandbox-Clock': '2026-03-02T17:00:00Z' };

function appWithStore() {
  const clock = { now: 5_000_000 };
  const store = new MemoryIdempotencyStore({ now: () => clock.now });
  const app = testApp({}, { idempotency: store });
  const post = (key: string, body: unknown, path = '/v1/clients') =>
    call(app, path, { method: 'POST', body, headers: { 'Idempotency-Key': key, ...PINNED } });
  return { app, clock, store, post };
}

describe('the same body', () => {
  it('a body holding null is fingerprinted like any other: no 5xx, and replayed', async () => {
    const { post } = appWithStore();
    const body = { name: 'Null Labs', kind: 'laboratory', epa_id: null, metadata: { note: 'x' } };
    const first = await post('with-null', body);
    expect(first.status, first.text).toBeLessThan(500);
    const again = await post('with-null', body);
    expect(again.status).toBe(first.status);
    expect(again.headers.get('Idempotent-Replayed')).toBe(first.status === 400 ? null : 'true');
  });

  it('an array and an object with the same members are different bodies: 409', async () => {
    const { app, post } = appWithStore();
    const client = (await call(app, '/v1/clients?limit=1')).json.data[0].id;
    const first = await post('array', { client, name: 'Two codes', waste_codes: ['D001', 'D002'] }, '/v1/waste_profiles');
    expect(first.status, first.text).toBe(201);
    const object = await post('array', { client, name: 'Two codes', waste_codes: { 0: 'D001', 1: 'D002' } }, '/v1/waste_profiles');
    expect(object.status, object.text).toBe(409);
    expect(object.json.error.code).toBe('idempotency_conflict');
  });
});

describe('kept 24 hours', () => {
  it('replays until the last millisecond of 24 hours; at 24 hours the key is new and the old record goes', async () => {
    const { clock, store, post } = appWithStore();
    const body = { name: 'Day Labs', kind: 'laboratory' };
    const first = await post('day', body);
    expect(first.status).toBe(201);
    const weight = store.bytes;
    clock.now += DAY_MS - 1;
    expect((await post('day', body)).headers.get('Idempotent-Replayed')).toBe('true');
    clock.now += 1;
    const after = await post('day', body);
    expect(after.status).toBe(201);
    expect(after.headers.get('Idempotent-Replayed')).toBeNull();
    // The same request at the same pinned time: the new record weighs what the old one did, once.
    expect(store.size).toBe(1);
    expect(store.bytes).toBe(weight);
  });

  it('a record 24 hours old goes at the next write of another key', async () => {
    const { clock, store, post } = appWithStore();
    await post('old', { name: 'Old Labs', kind: 'laboratory' });
    clock.now += DAY_MS;
    await post('new', { name: 'New Labs', kind: 'laboratory' });
    expect(store.size).toBe(1);
  });

  it('weighs at least its key, request body and answer, counted as UTF-16', async () => {
    const { store, post } = appWithStore();
    const body = { name: 'Weighed Labs', kind: 'laboratory' };
    const answer = await post('weighed', body);
    expect(store.bytes).toBeGreaterThanOrEqual(2 * ('weighed'.length + JSON.stringify(body).length + answer.text.length));
  });
});

describe('the store itself', () => {
  const response = { status: 201, body: '{"id":"cli_1"}' };

  it('counts a claim and a stored answer as UTF-16, and claims a new key as new', async () => {
    const store = new MemoryIdempotencyStore();
    expect(await store.claim('key', 'fingerprint')).toEqual({ state: 'new' });
    expect(store.bytes).toBe(2 * ('key'.length + 'fingerprint'.length));
    await store.complete('key', 'fingerprint', response);
    expect(store.bytes).toBe(2 * ('key'.length + 'fingerprint'.length + response.body.length));
    expect(await store.claim('key', 'fingerprint')).toEqual({ state: 'replay', response });
    expect(await store.claim('key', 'other')).toEqual({ state: 'mismatch' });
    await store.release('key');
    expect(store.bytes).toBe(0);
  });

  it('keeps a record of exactly maxBytes, and evicts it past that', async () => {
    const exact = 2 * ('key'.length + 'fingerprint'.length + response.body.length);
    const store = new MemoryIdempotencyStore({ maxBytes: exact });
    await store.claim('key', 'fingerprint');
    await store.complete('key', 'fingerprint', response);
    expect(store.size).toBe(1);
    const smaller = new MemoryIdempotencyStore({ maxBytes: exact - 1 });
    await smaller.complete('key', 'fingerprint', response);
    expect(smaller.size).toBe(0);
  });

  it('completes a key evicted while its request ran, and releases a key it never held', async () => {
    const store = new MemoryIdempotencyStore({ maxEntries: 1 });
    await store.claim('first', 'a');
    await store.claim('second', 'b');
    await expect(store.complete('first', 'a', response)).resolves.toBeUndefined();
    expect(await store.claim('first', 'a')).toEqual({ state: 'replay', response });
    await expect(store.release('never')).resolves.toBeUndefined();
    expect(store.size).toBe(1);
  });
});
