// List pages are cached by query; the cache must stay bounded and never serve one seed's or
// account's page to another.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PageCache } from '../src/data/page-cache.js';
import { listPageCache } from '../src/resources/endpoints.js';
import { call, OTHER_KEY, testApp } from './helpers.js';

// The list cache's clock is Date.now, faked here, so a page's age is what the test says however
// slow the machine (pages live 30 s).
beforeAll(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterAll(() => {
  vi.useRealTimers();
});

/** The bounds docs/operations.md gives the list page cache ("Memory bounds"). */
const MAX_PAGES = 2048;
const MAX_BYTES = 4 * 1024 * 1024;
const MAX_AGE_MS = 30_000;

describe('list page cache', () => {
  it('keeps at most maxBytes, dropping the oldest pages first', () => {
    const cache = new PageCache(1000);
    // A page is cached on its second miss (the first of a query may never come again).
    for (let i = 0; i < 50; i++) for (let miss = 0; miss < 2; miss++) cache.set(`page ${i}`, new Uint8Array(100));
    expect(cache.bytes).toBeLessThanOrEqual(1000);
    expect(cache.get('page 0')).toBeUndefined();
    expect(cache.get('page 49')).toBeDefined();
    cache.set('too big', new Uint8Array(2000));
    cache.set('too big', new Uint8Array(2000));
    expect(cache.get('too big')).toBeUndefined();
  });

  // A clock of the test's: each page's age and the doorkeeper's are what the test says.
  function clocked(maxBytes: number, options: { maxEntries?: number; maxAgeMs?: number } = {}) {
    const clock = { now: 0 };
    return { clock, cache: new PageCache(maxBytes, { ...options, now: () => clock.now }) };
  }
  /** A query missed twice: the second miss admits its page. */
  function missTwice(cache: PageCache, key: string, body: Uint8Array<ArrayBuffer>): void {
    cache.set(key, body);
    cache.set(key, body);
  }

  it('weighs an entry as its body, its key at two bytes a character and 128 bytes more, counted once', () => {
    const { cache } = clocked(10_000);
    missTwice(cache, 'abcd', new Uint8Array(100));
    expect(cache.size).toBe(1);
    // 100 body bytes + 4 characters × 2 + 128 overhead.
    expect(cache.bytes).toBe(236);
    // The same query missed twice again (as two apps sharing the cache may): still one entry, weighed once.
    missTwice(cache, 'abcd', new Uint8Array(100));
    expect(cache.size).toBe(1);
    expect(cache.bytes).toBe(236);
  });

  it('keeps a page that weighs exactly the byte bound, never one past it, and a page too big drops nothing', () => {
    // 870 + 1 × 2 + 128 = 1000: exactly the bound.
    const exact = clocked(1000);
    missTwice(exact.cache, 'k', new Uint8Array(870));
    expect(exact.cache.get('k')?.byteLength).toBe(870);
    expect(exact.cache.bytes).toBe(1000);
    // 871 + 2 + 128 = 1001: one byte past it, never cached, and the page already cached stays.
    const { cache } = clocked(1000, { maxEntries: 10 });
    missTwice(cache, 'a', new Uint8Array(10));
    missTwice(cache, 'b', new Uint8Array(871));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.byteLength).toBe(10);
    expect(cache.size).toBe(1);
    expect(cache.bytes).toBe(10 + 2 + 128);
  });

  it('drops the oldest pages when over its bytes or over its entries', () => {
    // Over bytes: three pages of 300 + 2 + 128 = 430 bytes within 1000 keep the two newest.
    const bytes = clocked(1000, { maxEntries: 10 });
    for (const key of ['a', 'b', 'c']) missTwice(bytes.cache, key, new Uint8Array(300));
    expect([bytes.cache.get('a'), bytes.cache.get('b'), bytes.cache.get('c')].map((page) => page !== undefined)).toEqual([
      false,
      true,
      true,
    ]);
    expect(bytes.cache.bytes).toBe(860);
    // Over entries: three small pages with room for two keep the two newest.
    const entries = clocked(1_000_000, { maxEntries: 2 });
    for (const key of ['a', 'b', 'c']) missTwice(entries.cache, key, new Uint8Array(1));
    expect([entries.cache.get('a'), entries.cache.get('b'), entries.cache.get('c')].map((page) => page !== undefined)).toEqual([
      false,
      true,
      true,
    ]);
    expect(entries.cache.size).toBe(2);
  });

  it('forgets the queries missed once when it has seen maxEntries of them', () => {
    const { cache } = clocked(1_000_000, { maxEntries: 2 });
    cache.set('a', new Uint8Array(1));
    cache.set('b', new Uint8Array(1));
    // The doorkeeper holds two keys, its bound: the next miss clears it first, so `a` is new again.
    cache.set('a', new Uint8Array(1));
    expect(cache.get('a'), 'missed twice, but across a reset').toBeUndefined();
    // With room for three keys, the same misses admit `a`.
    const roomier = clocked(1_000_000, { maxEntries: 3 });
    for (const key of ['a', 'b', 'a']) roomier.cache.set(key, new Uint8Array(1));
    expect(roomier.cache.get('a')).toBeDefined();
  });

  it('forgets the queries missed once maxAgeMs after it began remembering them, to the millisecond', () => {
    const { clock, cache } = clocked(1_000_000, { maxEntries: 100, maxAgeMs: 1000 });
    cache.set('a', new Uint8Array(1));
    clock.now = 999;
    cache.set('b', new Uint8Array(1));
    cache.set('b', new Uint8Array(1));
    expect(cache.get('b'), 'a second miss within maxAgeMs admits the page').toBeDefined();
    clock.now = 1000;
    cache.set('a', new Uint8Array(1));
    expect(cache.get('a'), 'at maxAgeMs the first miss is forgotten').toBeUndefined();
    cache.set('a', new Uint8Array(1));
    expect(cache.get('a')).toBeDefined();
  });

  it('serves each seed and each account its own pages', async () => {
    const first = testApp();
    const second = testApp({ SANDBOX_SEED: 'another-seed' });
    const ids = async (app: ReturnType<typeof testApp>, key?: string) =>
      (await call(app, '/v1/jobs?limit=5', key ? { key } : {})).json.data.map((job: { id: string }) => job.id);
    const a = await ids(first);
    expect(await ids(first)).toEqual(a);
    const other = await ids(second);
    expect(other).not.toEqual(a);
    expect(await ids(second)).toEqual(other);
    expect(await ids(first, OTHER_KEY)).not.toEqual(a);
  });

  it('a flood of distinct list queries fills the cache to its bounds of bytes and pages, never past', async () => {
    const app = testApp();
    const get = async (path: string) => {
      const result = await call(app, path);
      expect(result.status, result.text).toBe(200);
    };
    // Large pages: each query twice (a page is cached on its second request).
    const events = (await call(app, '/v1/events?limit=100')).json.data as { id: string }[];
    let heaviest = 0;
    for (const event of events) {
      for (let twice = 0; twice < 2; twice++) await get(`/v1/events?limit=100&starting_after=${event.id}`);
      heaviest = Math.max(heaviest, listPageCache.bytes);
      expect(listPageCache.bytes).toBeLessThanOrEqual(MAX_BYTES);
    }
    expect(heaviest, 'the flood reached the byte bound').toBeGreaterThan(MAX_BYTES - 200 * 1024);
    // Many small pages: more distinct queries than the cache holds, small enough that the page
    // bound is reached before the byte bound.
    let most = 0;
    for (const list of ['clients', 'sites', 'waste_profiles', 'containers', 'invoices']) {
      const cursors = (await call(app, `/v1/${list}?limit=100`)).json.data as { id: string }[];
      for (let limit = 1; limit <= 8; limit++) {
        for (const cursor of cursors) {
          for (let twice = 0; twice < 2; twice++) await get(`/v1/${list}?limit=${limit}&starting_after=${cursor.id}`);
          most = Math.max(most, listPageCache.size);
          expect(listPageCache.size).toBeLessThanOrEqual(MAX_PAGES);
        }
      }
    }
    expect(most, 'the flood reached the page bound').toBe(MAX_PAGES);
    expect(listPageCache.bytes).toBeLessThanOrEqual(MAX_BYTES);
    // Once they are 30 s old, the next page built drops them all.
    vi.setSystemTime(Date.now() + MAX_AGE_MS);
    await get('/v1/clients?limit=3');
    expect(listPageCache.size).toBe(0);
    expect(listPageCache.bytes).toBe(0);
  });
});
