// Floods: the same Idempotency-Key 50 times at once, thousands of distinct Idempotency-Keys, of
// distinct presented keys and of distinct list queries. Exactly one request runs per key; every
// store stays within its bounds (small ones here, so the test is quick), evicts the oldest, lets
// expired entries go; and the app keeps serving normal requests throughout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageCache } from '../../src/data/page-cache.js';
import { MemoryIdempotencyStore } from '../../src/idempotency/memory-store.js';
import { TokenBucketLimiter } from '../../src/rate-limit/token-bucket.js';
import { call, PUBLIC_KEY, testApp } from '../helpers.js';
import { type Loopback, normalRequestSucceeds, startLoopback } from './loopback.js';

let server: Loopback;
let site: { id: string; client: string };

beforeAll(async () => {
  server = await startLoopback();
  site = (await call(testApp(), '/v1/sites?limit=1')).json.data[0];
});

afterAll(async () => {
  await server.close();
});

const jobBody = (note = 'x') => JSON.stringify({ type: 'ci_pickup', client: site.client, site: site.id, metadata: { note } });

describe('floods', () => {
  it('the same Idempotency-Key sent 50 times at once runs exactly once; the rest replay it or get 409', async () => {
    const body = jobBody();
    const answers = await Promise.all(
      Array.from({ length: 50 }, async () => {
        const response = await fetch(`http://127.0.0.1:${server.port}/v1/jobs`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${PUBLIC_KEY}`, 'Content-Type': 'application/json', 'Idempotency-Key': 'same-key-50' },
          body,
        });
        return { status: response.status, replayed: response.headers.get('idempotent-replayed') === 'true', text: await response.text() };
      }),
    );
    const ran = answers.filter((answer) => answer.status === 201 && !answer.replayed);
    expect(ran).toHaveLength(1);
    for (const answer of answers) {
      if (answer.status === 201) expect(answer.text).toBe(ran[0]?.text);
      else {
        expect(answer.status).toBe(409);
        expect(JSON.parse(answer.text).error).toMatchObject({ code: 'idempotency_conflict', param: 'Idempotency-Key' });
      }
    }
    expect(await normalRequestSucceeds(server.port)).toBe(true);
  });

  it('a flood of distinct Idempotency-Keys stays within the store bounds, oldest out first', async () => {
    let clock = 0;
    const store = new MemoryIdempotencyStore({ maxEntries: 100, maxBytes: 200 * 1024, ttlMs: 60_000, now: () => clock });
    const app = testApp({}, { idempotency: store });
    const post = (key: string, note: string) =>
      call(app, '/v1/jobs', { method: 'POST', body: jobBody(note), headers: { 'Idempotency-Key': key } });
    const note = (i: number) => 'n'.repeat(i % 3 === 0 ? 400 : 1);
    for (let i = 0; i < 1000; i++) {
      const result = await post(`flood-${i}`, note(i));
      expect(result.status).toBe(201);
      expect(store.size).toBeLessThanOrEqual(100);
      expect(store.bytes).toBeLessThanOrEqual(200 * 1024);
      if (i % 250 === 0) expect((await call(app, '/v1/jobs?limit=1')).status).toBe(200);
    }
    // The newest key still replays; the oldest was evicted, so another body under it simply runs.
    const newest = await post('flood-999', note(999));
    expect(newest.headers.get('idempotent-replayed')).toBe('true');
    const oldest = await post('flood-0', 'another body');
    expect(oldest.status).toBe(201);
    expect(oldest.headers.get('idempotent-replayed')).toBeNull();
    // Once their TTL has passed, entries go at the next write: memory returns to one entry.
    clock += 60_001;
    await post('after-expiry', 'n');
    expect(store.size).toBe(1);
  });

  it('a flood of distinct presented keys keeps the rate-limit buckets bounded, and idle ones go', async () => {
    let clock = 0;
    const limiter = new TokenBucketLimiter({ perSecond: 3, maxBuckets: 50, now: () => clock });
    const app = testApp({}, { rateLimiter: limiter });
    for (let i = 0; i < 2000; i++) {
      const result = await call(app, '/v1/jobs?limit=1', { key: `svc_test_guess_${i}_${'k'.repeat(i % 300)}` });
      // Each guessed key has its own full bucket: 401, never 429, and never a 5xx.
      expect(result.status).toBe(401);
      expect(limiter.size).toBeLessThanOrEqual(50);
      if (i % 500 === 0) expect((await call(app, '/v1/jobs?limit=1')).status).toBe(200);
    }
    // A real client is still limited as documented while the flood goes on: 3 a second.
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await call(app, '/v1/jobs?limit=1')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    // A second later every bucket is full again, the same as absent: the next request drops them.
    clock += 1000;
    expect((await call(app, '/v1/jobs?limit=1')).status).toBe(200);
    expect(limiter.size).toBe(1);
  });

  it('a flood of distinct list queries is answered from a bounded page cache', async () => {
    const app = testApp();
    const jobs = (await call(app, '/v1/jobs?limit=100')).json.data as { id: string }[];
    for (let i = 0; i < 600; i++) {
      const cursor = jobs[i % jobs.length]?.id;
      const result = await call(app, `/v1/jobs?limit=${1 + (i % 100)}&starting_after=${cursor}`);
      expect(result.status).toBe(200);
    }
    // The same query gives the same page, cached or rebuilt.
    const again = await call(app, `/v1/jobs?limit=2&starting_after=${jobs[1]?.id}`);
    expect(again.json.data.map((job: { id: string }) => job.id)).toEqual(jobs.slice(2, 4).map((job) => job.id));
  });

  it('the page cache holds at most its count and bytes, and drops pages past their age', () => {
    let clock = 0;
    const cache = new PageCache(64 * 1024, { maxEntries: 20, maxAgeMs: 1000, now: () => clock });
    // A query seen once is not cached: a flood of distinct queries leaves no pages behind.
    for (let i = 0; i < 100; i++) cache.set(`once ${i}`, new Uint8Array(5000));
    expect(cache.size).toBe(0);
    // Pages are admitted on their second miss.
    for (let i = 0; i < 500; i++) {
      cache.set(`query ${i}`, new Uint8Array(i % 2 === 0 ? 10 : 5000));
      cache.set(`query ${i}`, new Uint8Array(i % 2 === 0 ? 10 : 5000));
      expect(cache.size).toBeLessThanOrEqual(20);
      expect(cache.bytes).toBeLessThanOrEqual(64 * 1024);
    }
    expect(cache.get('query 0')).toBeUndefined();
    expect(cache.get('query 499')).toBeDefined();
    clock += 1000;
    cache.set('after a second', new Uint8Array(10));
    expect(cache.size).toBe(0);
  });
});
