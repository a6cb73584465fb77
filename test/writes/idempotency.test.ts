// Idempotency-Key on the seven POST endpoints (reference, "Endpoints"; SANDBOX.md,
// "Idempotency" and "Readings of the reference"), through HTTP, plus the memory store's bounds.
import { describe, expect, it } from 'vitest';
import { MemoryIdempotencyStore } from '../../src/idempotency/memory-store.js';
import type { IdempotencyStore, StoredResponse } from '../../src/idempotency/store.js';
import type { Client } from '../../src/resources/clients/schema.js';
import type { Job } from '../../src/resources/jobs/schema.js';
import type { Manifest } from '../../src/resources/manifests/schema.js';
import type { Site } from '../../src/resources/sites/schema.js';
import {
  expectError,
  expectStatus,
  findSample,
  invalid,
  keyWithout,
  records,
  scopeMissing,
  send,
  TWIN_KEY,
  unknownId,
  writesApp,
  type CallResult,
  type TestApp,
} from './helpers.js';

const app = writesApp();

let counter = 0;
/** A key no other test uses. */
const freshKey = () => `idem-${Date.now()}-${counter++}`;

function post(target: TestApp, path: string, body: unknown, idempotencyKey?: string, key?: string): Promise<CallResult> {
  return send(target, 'POST', path, {
    body,
    ...(idempotencyKey === undefined ? {} : { headers: { 'Idempotency-Key': idempotencyKey } }),
    ...(key ? { key } : {}),
  });
}

interface PostCase {
  name: string;
  path: string;
  body: Record<string, unknown>;
  /** The same body with its keys in another order (nested objects too). */
  reordered: Record<string, unknown>;
  /** Another valid body for the same path. */
  other: Record<string, unknown>;
  status: 201 | 200;
}

/** One valid request per idempotent POST endpoint, built from sample records. */
async function postCases(): Promise<PostCase[]> {
  const site = await findSample<Site>(app, '/v1/sites');
  const [jobs, clients] = await Promise.all([records<Job>(app, '/v1/jobs'), records<Client>(app, '/v1/clients')]);
  const epaClients = new Set(clients.filter((client) => client.epa_id !== null).map((client) => client.id));
  const manifestJob = jobs.find((job) => job.status === 'scheduled' && epaClients.has(job.client)) as Job;
  const cancellable = jobs.find((job) => job.status === 'scheduled') as Job;
  const facility = (await findSample<Manifest>(app, '/v1/manifests')).designated_facility.epa_id;
  const address = { line1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701' };
  return [
    {
      name: 'POST /v1/clients',
      path: '/v1/clients',
      body: { name: 'Idem Co', kind: 'laboratory', metadata: { a: '1', b: '2' } },
      reordered: { metadata: { b: '2', a: '1' }, kind: 'laboratory', name: 'Idem Co' },
      other: { name: 'Idem Co 2', kind: 'laboratory' },
      status: 201,
    },
    {
      name: 'POST /v1/sites',
      path: '/v1/sites',
      body: { client: site.client, name: 'Idem Yard', address },
      reordered: {
        address: { postal_code: '78701', state: 'TX', city: 'Austin', line1: '1 Main St' },
        name: 'Idem Yard',
        client: site.client,
      },
      other: { client: site.client, name: 'Idem Yard 2', address },
      status: 201,
    },
    {
      name: 'POST /v1/waste_profiles',
      path: '/v1/waste_profiles',
      body: { client: site.client, name: 'Idem stream', waste_codes: ['D001', 'F005'] },
      reordered: { waste_codes: ['D001', 'F005'], name: 'Idem stream', client: site.client },
      other: { client: site.client, name: 'Idem stream', waste_codes: ['F005', 'D001'] },
      status: 201,
    },
    {
      name: 'POST /v1/jobs',
      path: '/v1/jobs',
      body: {
        type: 'ci_pickup',
        client: site.client,
        site: site.id,
        scheduled_for: '2026-09-01',
        window: { start: '08:00', end: '10:00' },
      },
      reordered: {
        window: { end: '10:00', start: '08:00' },
        scheduled_for: '2026-09-01',
        site: site.id,
        client: site.client,
        type: 'ci_pickup',
      },
      other: { type: 'lab_pack', client: site.client, site: site.id },
      status: 201,
    },
    {
      name: 'POST /v1/jobs/{id}/cancel',
      path: `/v1/jobs/${cancellable.id}/cancel`,
      body: { reason: 'weather' },
      reordered: { reason: 'weather' },
      other: { reason: 'crew unavailable' },
      status: 200,
    },
    {
      name: 'POST /v1/manifests',
      path: '/v1/manifests',
      body: { job: manifestJob.id, designated_facility: facility, submission_type: 'FullElectronic' },
      reordered: { submission_type: 'FullElectronic', designated_facility: facility, job: manifestJob.id },
      other: { job: manifestJob.id, designated_facility: facility },
      status: 201,
    },
    {
      name: 'POST /v1/webhook_endpoints',
      path: '/v1/webhook_endpoints',
      body: { url: 'https://hooks.example.com/a', events: ['job.created', 'job.closed'] },
      reordered: { events: ['job.created', 'job.closed'], url: 'https://hooks.example.com/a' },
      other: { url: 'https://hooks.example.com/a', events: ['job.closed', 'job.created'] },
      status: 201,
    },
  ];
}

async function postCase(name: string): Promise<PostCase> {
  return (await postCases()).find((entry) => entry.name === name) as PostCase;
}

const NAMES = [
  'POST /v1/clients',
  'POST /v1/sites',
  'POST /v1/waste_profiles',
  'POST /v1/jobs',
  'POST /v1/jobs/{id}/cancel',
  'POST /v1/manifests',
  'POST /v1/webhook_endpoints',
];

describe.each(NAMES)('%s with an Idempotency-Key', (name) => {
  it('a replay with the same key and body (keys in any order) answers the same status and bytes', async () => {
    const entry = await postCase(name);
    const key = freshKey();
    const first = await post(app, entry.path, entry.body, key);
    expectStatus(first, entry.status);
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();

    const replay = await post(app, entry.path, entry.reordered, key);
    expectStatus(replay, entry.status);
    expect(replay.text).toBe(first.text);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    // A replay is a new request: its own Request-Id, the first body unchanged.
    expect(replay.headers.get('Request-Id')).not.toBe(first.headers.get('Request-Id'));
  });

  it('without a key, the same request runs anew each time', async () => {
    const entry = await postCase(name);
    const a = await post(app, entry.path, entry.body);
    const b = await post(app, entry.path, entry.body);
    expectStatus(a, entry.status);
    expectStatus(b, entry.status);
    expect(b.headers.get('Idempotent-Replayed')).toBeNull();
    if (entry.status === 201) expect(b.json.id).not.toBe(a.json.id);
  });

  it('the same key with a different body is 409 idempotency_conflict', async () => {
    const entry = await postCase(name);
    const key = freshKey();
    expectStatus(await post(app, entry.path, entry.body, key), entry.status);
    expectError(await post(app, entry.path, entry.other, key), { status: 409, code: 'idempotency_conflict', param: 'Idempotency-Key' });
  });

  it('the same key with an empty body where the first had one is 409', async () => {
    const entry = await postCase(name);
    const key = freshKey();
    expectStatus(await post(app, entry.path, entry.body, key), entry.status);
    expectError(await post(app, entry.path, undefined, key), { status: 409, code: 'idempotency_conflict', param: 'Idempotency-Key' });
  });

  it('the same key on another API key runs anew', async () => {
    const entry = await postCase(name);
    const key = freshKey();
    const first = await post(app, entry.path, entry.body, key);
    expectStatus(first, entry.status);
    const twin = await post(app, entry.path, entry.other, key, TWIN_KEY);
    expectStatus(twin, entry.status);
    expect(twin.headers.get('Idempotent-Replayed')).toBeNull();
    if (entry.status === 201) expect(twin.json.id).not.toBe(first.json.id);
  });

  it('a 400 is not stored: the fixed body under the same key succeeds', async () => {
    const entry = await postCase(name);
    const key = freshKey();
    const bad = await post(app, entry.path, { ...entry.body, unknown_field: 1 }, key);
    expectError(bad, invalid('unknown_field'));
    const fixed = await post(app, entry.path, entry.body, key);
    expectStatus(fixed, entry.status);
    expect(fixed.headers.get('Idempotent-Replayed')).toBeNull();
  });

  it('a key over 255 characters is 400 param Idempotency-Key; 255 is accepted', async () => {
    const entry = await postCase(name);
    expectError(await post(app, entry.path, entry.body, 'k'.repeat(256)), invalid('Idempotency-Key', /255/));
    expectStatus(await post(app, entry.path, entry.body, `${freshKey()}-`.padEnd(255, 'k')), entry.status);
  });

  it('an empty Idempotency-Key is 400 param Idempotency-Key', async () => {
    const entry = await postCase(name);
    expectError(await post(app, entry.path, entry.body, ''), invalid('Idempotency-Key'));
  });

  it('a key without the scope is 403 even when the Idempotency-Key has a stored result', async () => {
    const entry = await postCase(name);
    const key = freshKey();
    expectStatus(await post(app, entry.path, entry.body, key), entry.status);
    const scope = (
      {
        'POST /v1/clients': 'clients:write',
        'POST /v1/sites': 'sites:write',
        'POST /v1/waste_profiles': 'profiles:write',
        'POST /v1/jobs': 'jobs:write',
        'POST /v1/jobs/{id}/cancel': 'jobs:write',
        'POST /v1/manifests': 'manifests:write',
        'POST /v1/webhook_endpoints': 'webhooks:write',
      } as const
    )[name as 'POST /v1/clients'];
    expectError(await post(app, entry.path, entry.body, key, keyWithout(scope)), scopeMissing);
  });
});

describe('Idempotency-Key: what is stored', () => {
  it('the same key on another path is 409', async () => {
    const key = freshKey();
    expectStatus(await post(app, '/v1/webhook_endpoints', { url: 'https://example.com/a', events: ['*'] }, key), 201);
    expectError(await post(app, '/v1/clients', { name: 'x', kind: 'laboratory' }, key), {
      status: 409,
      code: 'idempotency_conflict',
      param: 'Idempotency-Key',
    });
  });

  it('the same key on the cancel path of another job is 409', async () => {
    const [a, b] = (await records<Job>(app, '/v1/jobs?status=scheduled')).slice(0, 2) as [Job, Job];
    const key = freshKey();
    expectStatus(await post(app, `/v1/jobs/${a.id}/cancel`, undefined, key), 200);
    expectError(await post(app, `/v1/jobs/${b.id}/cancel`, undefined, key), {
      status: 409,
      code: 'idempotency_conflict',
      param: 'Idempotency-Key',
    });
  });

  it('409 comes before validation: a stored key sent with an invalid body is 409, not 400', async () => {
    const key = freshKey();
    expectStatus(await post(app, '/v1/clients', { name: 'x', kind: 'laboratory' }, key), 201);
    expectError(await post(app, '/v1/clients', { kind: 'nope' }, key), {
      status: 409,
      code: 'idempotency_conflict',
      param: 'Idempotency-Key',
    });
  });

  it('a 404 is stored and replayed, request_id of the first included', async () => {
    const key = freshKey();
    const body = { type: 'ci_pickup', client: unknownId('cli'), site: unknownId('site') };
    const first = await post(app, '/v1/jobs', body, key);
    expectError(first, { status: 404, code: 'resource_missing', param: 'client' });
    const replay = await post(app, '/v1/jobs', body, key);
    expect(replay.status, replay.text).toBe(404);
    expect(replay.text).toBe(first.text);
    expect(replay.json.error.request_id).toBe(first.headers.get('Request-Id'));
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
  });

  it('a 422 is stored and replayed', async () => {
    const closed = await findSample<Job>(app, '/v1/jobs?status=closed');
    const key = freshKey();
    const first = await post(app, `/v1/jobs/${closed.id}/cancel`, { reason: 'x' }, key);
    expectError(first, { status: 422, code: 'state_invalid' });
    const replay = await post(app, `/v1/jobs/${closed.id}/cancel`, { reason: 'x' }, key);
    expect(replay.status, replay.text).toBe(422);
    expect(replay.text).toBe(first.text);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    // Stored means the key is taken: another body under it is a conflict.
    expectError(await post(app, `/v1/jobs/${closed.id}/cancel`, { reason: 'y' }, key), {
      status: 409,
      code: 'idempotency_conflict',
      param: 'Idempotency-Key',
    });
  });

  it('a replay carries the headers of every response', async () => {
    const key = freshKey();
    await post(app, '/v1/clients', { name: 'x', kind: 'laboratory' }, key);
    const replay = await post(app, '/v1/clients', { name: 'x', kind: 'laboratory' }, key);
    expect(replay.headers.get('Content-Type')).toBe('application/json');
    expect(replay.headers.get('RateLimit-Policy')).not.toBeNull();
    expect(replay.headers.get('Request-Id')).toMatch(/^req_/);
  });

  it('a body that is not JSON under a key is 400 and leaves the key free', async () => {
    const key = freshKey();
    expectError(await post(app, '/v1/clients', '{"name":', key), { status: 400, code: 'parameter_invalid' });
    expectStatus(await post(app, '/v1/clients', { name: 'x', kind: 'laboratory' }, key), 201);
  });

  it('a 500 is not stored: the retry under the same key runs anew', async () => {
    const key = freshKey();
    const body = { name: 'Retry Co', kind: 'laboratory' };
    const failed = await send(app, 'POST', '/v1/clients', { body, headers: { 'Idempotency-Key': key, 'Sandbox-Simulate': 'api_error' } });
    expectError(failed, { status: 500, code: 'api_error' });
    const retry = await post(app, '/v1/clients', body, key);
    expectStatus(retry, 201);
    expect(retry.headers.get('Idempotent-Replayed')).toBeNull();
  });

  it('PATCH and DELETE ignore an Idempotency-Key', async () => {
    const client = await findSample<Client>(app, '/v1/clients');
    const key = freshKey();
    const a = await send(app, 'PATCH', `/v1/clients/${client.id}`, { body: { name: 'a' }, headers: { 'Idempotency-Key': key } });
    const b = await send(app, 'PATCH', `/v1/clients/${client.id}`, { body: { name: 'b' }, headers: { 'Idempotency-Key': key } });
    expectStatus(a, 200);
    expectStatus(b, 200);
    expect(b.json.name).toBe('b');
    expect(b.headers.get('Idempotent-Replayed')).toBeNull();
  });
});

/** A store whose `complete` waits until the test lets it, so a request can be held in flight. */
class HeldStore implements IdempotencyStore {
  readonly inner = new MemoryIdempotencyStore();
  #open: () => void = () => {};
  #held = new Promise<void>((resolve) => {
    this.#open = resolve;
  });
  #reached: () => void = () => {};
  /** Resolves once a request has run and is waiting to be stored. */
  readonly completing = new Promise<void>((resolve) => {
    this.#reached = resolve;
  });

  /** Lets the held request be stored. */
  open(): void {
    this.#open();
  }

  claim(key: string, fingerprint: string) {
    return this.inner.claim(key, fingerprint);
  }

  async complete(key: string, fingerprint: string, response: StoredResponse): Promise<void> {
    this.#reached();
    await this.#held;
    return this.inner.complete(key, fingerprint, response);
  }

  release(key: string): Promise<void> {
    return this.inner.release(key);
  }
}

describe('Idempotency-Key: a request in flight', () => {
  it('the same key while the first request is running is 409; afterwards it replays', async () => {
    const store = new HeldStore();
    const held = writesApp({ idempotency: store });
    const body = { name: 'In flight', kind: 'laboratory' };
    const first = post(held, '/v1/clients', body, 'in-flight-key');
    await store.completing;

    const second = await post(held, '/v1/clients', body, 'in-flight-key');
    expectError(second, { status: 409, code: 'idempotency_conflict', param: 'Idempotency-Key', message: /still being processed/ });

    store.open();
    const done = await first;
    expectStatus(done, 201);
    const replay = await post(held, '/v1/clients', body, 'in-flight-key');
    expectStatus(replay, 201);
    expect(replay.text).toBe(done.text);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
  });
});

describe('MemoryIdempotencyStore bounds', () => {
  it('never holds more entries than its cap, however many keys arrive through HTTP', async () => {
    const store = new MemoryIdempotencyStore({ maxEntries: 5 });
    const bounded = writesApp({ idempotency: store });
    for (let i = 0; i < 40; i++) {
      expectStatus(await post(bounded, '/v1/webhook_endpoints', { url: 'https://example.com/h', events: ['*'] }, `cap-${i}`), 201);
      expect(store.size).toBeLessThanOrEqual(5);
    }
    expect(store.size).toBe(5);
  });

  it('the oldest key goes first: an evicted key runs anew, a kept one still replays', async () => {
    const store = new MemoryIdempotencyStore({ maxEntries: 2 });
    const bounded = writesApp({ idempotency: store });
    const body = (n: number) => ({ name: `client ${n}`, kind: 'laboratory' });
    for (const n of [1, 2, 3]) expectStatus(await post(bounded, '/v1/clients', body(n), `evict-${n}`), 201);
    const evicted = await post(bounded, '/v1/clients', body(99), 'evict-1');
    expectStatus(evicted, 201);
    expect(evicted.headers.get('Idempotent-Replayed')).toBeNull();
    const kept = await post(bounded, '/v1/clients', body(3), 'evict-3');
    expect(kept.headers.get('Idempotent-Replayed')).toBe('true');
  });

  it('never holds more bytes than its cap', async () => {
    const store = new MemoryIdempotencyStore({ maxBytes: 8 * 1024 });
    const bounded = writesApp({ idempotency: store });
    for (let i = 0; i < 60; i++) {
      const result = await post(bounded, '/v1/clients', { name: `client ${'x'.repeat(150)} ${i}`, kind: 'laboratory' }, `bytes-${i}`);
      expectStatus(result, 201);
      expect(store.bytes).toBeLessThanOrEqual(8 * 1024);
    }
    expect(store.size).toBeGreaterThan(0);
  });

  it('a key expires after its TTL: the same key with another body then runs anew', async () => {
    let now = 1_000_000;
    const store = new MemoryIdempotencyStore({ ttlMs: 60_000, now: () => now });
    const ttl = writesApp({ idempotency: store });
    expectStatus(await post(ttl, '/v1/clients', { name: 'a', kind: 'laboratory' }, 'ttl-key'), 201);
    now += 59_999;
    expectError(await post(ttl, '/v1/clients', { name: 'b', kind: 'laboratory' }, 'ttl-key'), {
      status: 409,
      code: 'idempotency_conflict',
      param: 'Idempotency-Key',
    });
    now += 2;
    const after = await post(ttl, '/v1/clients', { name: 'b', kind: 'laboratory' }, 'ttl-key');
    expectStatus(after, 201);
    expect(after.headers.get('Idempotent-Replayed')).toBeNull();
  });

  it('expired entries are dropped as new ones arrive', async () => {
    let now = 0;
    const store = new MemoryIdempotencyStore({ ttlMs: 1_000, now: () => now });
    const ttl = writesApp({ idempotency: store });
    for (let i = 0; i < 10; i++) await post(ttl, '/v1/clients', { name: `c${i}`, kind: 'laboratory' }, `old-${i}`);
    expect(store.size).toBe(10);
    now += 5_000;
    expectStatus(await post(ttl, '/v1/clients', { name: 'new', kind: 'laboratory' }, 'new-key'), 201);
    expect(store.size).toBe(1);
  });

  it('defaults to keeping entries 24 hours', async () => {
    let now = 0;
    const store = new MemoryIdempotencyStore({ now: () => now });
    const day = writesApp({ idempotency: store });
    expectStatus(await post(day, '/v1/clients', { name: 'a', kind: 'laboratory' }, 'day-key'), 201);
    now += 24 * 60 * 60 * 1000 - 1;
    expect((await post(day, '/v1/clients', { name: 'a', kind: 'laboratory' }, 'day-key')).headers.get('Idempotent-Replayed')).toBe('true');
    now += 2;
    expect((await post(day, '/v1/clients', { name: 'a', kind: 'laboratory' }, 'day-key')).headers.get('Idempotent-Replayed')).toBeNull();
  });
});
