// The documented limits of requests and of what the sandbox holds (issue #37, part 3): each test
// fails when the value changes. Every expected value is written here from the docs, quoted beside
// it, never imported from src/. Everything goes through the public API: createSandbox().fetch.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/index.js';

const KEY = 'svc_test_sandbox_public';
/** A client and one of its sites in the default seed (docs/sample-data.md). */
const CLIENT = 'cli_seII9pzPSgmmJJ';

afterEach(() => {
  vi.useRealTimers();
});

function request(path: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}): Request {
  return new Request(`http://sandbox.test${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json', ...init.headers },
    ...(init.body === undefined ? {} : { body: init.body }),
  });
}

async function errorOf(response: Response): Promise<{ code: string; param?: string; message: string }> {
  return ((await response.json()) as { error: { code: string; param?: string; message: string } }).error;
}

describe('body nesting: 32 levels', () => {
  // docs/behaviour.md, "Bodies": "bodies nested deeper than 32 levels are 400"; "Limits beyond the
  // reference": "Body nesting | 32 levels (400)". The body itself is the first level.
  const nested = (levels: number) => `{"metadata":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;

  it('32 levels are read (then validated, and refused for what they hold)', async () => {
    const sandbox = createSandbox();
    const response = await sandbox.fetch(request('/v1/clients', { body: nested(32) }));
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.param, 'a field is at fault, not the body').toBeDefined();
    expect(error.message).not.toMatch(/nest/);
  });

  it('33 levels are refused as too deep', async () => {
    const sandbox = createSandbox();
    const response = await sandbox.fetch(request('/v1/clients', { body: nested(33) }));
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe('parameter_invalid');
    expect(error.message).toMatch(/nests .* deeper than 32 levels/);
  });
});

describe('metadata keys 1 to 40 characters, values up to 500', () => {
  // SANDBOX.md, "Validation decisions": "`metadata`: at most 20 pairs, keys 1..40 characters,
  // values strings up to 500 characters"; docs/behaviour.md: "Metadata keys and values | keys 1 to
  // 40 characters, values up to 500".
  const client = (metadata: Record<string, string>) => JSON.stringify({ name: 'Acme Labs', kind: 'laboratory', metadata });

  it.each([
    ['a key of 40 characters', { ['k'.repeat(40)]: 'v' }, 201],
    ['a key of 41 characters', { ['k'.repeat(41)]: 'v' }, 400],
    ['a key of 1 character', { k: 'v' }, 201],
    ['an empty key', { '': 'v' }, 400],
    ['a value of 500 characters', { note: 'v'.repeat(500) }, 201],
    ['a value of 501 characters', { note: 'v'.repeat(501) }, 400],
  ] as const)('%s: %s', async (_, metadata, status) => {
    const sandbox = createSandbox();
    const response = await sandbox.fetch(request('/v1/clients', { body: client(metadata) }));
    expect(response.status).toBe(status);
    if (status === 400) {
      const error = await errorOf(response);
      expect(error.code).toBe('parameter_invalid');
      expect(error.param).toMatch(/^metadata/);
    }
  });
});

describe('the idempotency store: 10,000 keys and 8 MiB, oldest first out', () => {
  // docs/behaviour.md, "Idempotency": "On Node, the store keeps at most 10,000 keys or 8 MiB, oldest
  // first out, each for 24 hours; a key evicted early only means a very late retry runs again".
  // docs/operations.md, "Memory bounds": "10,000 keys and 8 MiB (keys, request fingerprints and
  // stored bodies, counted as UTF-16)".
  const replayed = (response: Response) => response.headers.get('Idempotent-Replayed') === 'true';

  it('the 10,000 latest keys replay; the 10,001st key pushes out the oldest', async () => {
    const sandbox = createSandbox();
    // Small stored answers (a webhook endpoint), so the count is reached long before the bytes.
    const body = JSON.stringify({ url: 'https://example.com/h', events: ['*'] });
    const create = (key: string) => sandbox.fetch(request('/v1/webhook_endpoints', { body, headers: { 'Idempotency-Key': key } }));
    for (let n = 1; n <= 10_000; n++) expect((await create(`k${n}`)).status).toBe(201);
    expect(replayed(await create('k1')), 'the oldest of 10,000 is still kept').toBe(true);
    expect((await create('k10001')).status).toBe(201);
    // k1 was retried, not written again: it is still the oldest, and goes first.
    expect(replayed(await create('k2')), 'the second oldest stays').toBe(true);
    expect(replayed(await create('k1')), 'the oldest went first: its retry runs again').toBe(false);
  }, 120_000);

  it('stored answers past 8 MiB push out the oldest', async () => {
    const sandbox = createSandbox();
    // A site whose access_notes has 195,000 characters: its request fingerprint and its stored answer
    // each hold them, so an entry counts a little over 4 × 195,000 bytes as UTF-16 (0.78 MB). Ten of
    // them and the claim of an eleventh stay under 8 MiB (8,388,608 bytes); eleven are over it.
    const notes = 'n'.repeat(195_000);
    const body = JSON.stringify({
      client: CLIENT,
      name: 'Large notes',
      address: { line1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701' },
      access_notes: notes,
    });
    const create = (key: string) => sandbox.fetch(request('/v1/sites', { body, headers: { 'Idempotency-Key': key } }));
    for (let n = 1; n <= 10; n++) expect((await create(`big${n}`)).status).toBe(201);
    expect(replayed(await create('big1')), 'ten entries fit in 8 MiB').toBe(true);
    expect((await create('big11')).status).toBe(201);
    expect(replayed(await create('big2')), 'the second oldest stays').toBe(true);
    expect(replayed(await create('big1')), 'eleven do not: the oldest went first').toBe(false);
  });
});

describe('rate-limit buckets: 20,000, the least recently used out first', () => {
  // docs/operations.md, "Memory bounds": "rate-limit buckets … 20,000 buckets (per presented key,
  // at most 300 characters of it, and client address) | the least recently used bucket goes first
  // and comes back full". docs/behaviour.md: "at most 20,000 buckets in memory on Node".
  async function limitedSandbox(): Promise<{ sandbox: Sandbox; from: (address: string) => Promise<Response> }> {
    // The clock stands still (from before the sandbox is made, which takes Date.now then): no bucket
    // refills or goes idle while the others arrive.
    vi.useFakeTimers({ toFake: ['Date'] });
    let address = '';
    const sandbox = createSandbox({ rateLimit: 1, clientAddress: () => address });
    const from = (next: string) => {
      address = next;
      return sandbox.fetch(request('/v1/clients?limit=1'));
    };
    // The first request builds what the app needs, before the clock stands still.
    await from('warm-up');
    return { sandbox, from };
  }

  it('19,999 other callers leave an empty bucket in place; the 20,000th pushes it out, and it comes back full', async () => {
    const { from } = await limitedSandbox();
    expect((await from('203.0.113.1')).status).toBe(200);
    expect((await from('203.0.113.1')).status, 'one a second: the bucket is empty').toBe(429);
    for (let n = 1; n <= 19_999; n++) expect((await from(`caller-${n}`)).status).toBe(200);
    expect((await from('203.0.113.1')).status, '20,000 buckets: still limited').toBe(429);
    // It was used last just now: the least recently used is caller-1's.
    expect((await from('caller-20000')).status).toBe(200);
    expect((await from('caller-1')).status, "caller-1's bucket went first and came back full").toBe(200);
  }, 120_000);

  it('a key is counted by its first 300 characters or so', async () => {
    // docs/operations.md: "per presented key, at most 300 characters of it, and client address".
    // Whether "Bearer " counts among the 300 the docs leave open: keys alike in their first 300
    // characters share a bucket, keys that differ by their 280th have their own.
    vi.useFakeTimers({ toFake: ['Date'] });
    const sandbox = createSandbox({ rateLimit: 1 });
    const withKey = (key: string) =>
      sandbox.fetch(new Request('http://sandbox.test/v1/clients', { headers: { Authorization: `Bearer ${key}` } }));
    const alike = `svc_test_${'x'.repeat(291)}`;
    expect(alike).toHaveLength(300);
    expect((await withKey(`${alike}a`)).status).toBe(401);
    expect((await withKey(`${alike}b`)).status, 'alike in the first 300 characters: one bucket').toBe(429);
    const differ = (last: string) => `svc_test_${'y'.repeat(270)}${last}${'z'.repeat(40)}`;
    expect((await withKey(differ('a'))).status).toBe(401);
    expect((await withKey(differ('b'))).status, 'different at the 280th: two buckets').toBe(401);
  });

  it('an empty bucket is not full again before a second has passed', async () => {
    // docs/operations.md, "Memory bounds": "A bucket idle for a second is full again, the same as
    // absent, so it is dropped at the next request". Dropped sooner, it would come back full sooner.
    vi.useFakeTimers({ toFake: ['Date'] });
    const sandbox = createSandbox({ rateLimit: 1 });
    const get = () => sandbox.fetch(request('/v1/clients?limit=1'));
    expect((await get()).status).toBe(200);
    expect((await get()).status).toBe(429);
    vi.setSystemTime(Date.now() + 999);
    expect((await get()).status, '999 ms later: not yet').toBe(429);
    vi.setSystemTime(Date.now() + 1_001);
    expect((await get()).status).toBe(200);
  });
});
