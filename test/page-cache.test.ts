// List pages are cached by query; the cache must stay bounded and never serve one seed's or
// account's page to another.
import { describe, expect, it } from 'vitest';
import { PageCache } from '../src/data/page-cache.js';
import { call, OTHER_KEY, testApp } from './helpers.js';

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
});
