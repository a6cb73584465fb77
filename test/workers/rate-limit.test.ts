// Rate limits and failure simulation on Workers (SANDBOX.md, "Rate limits and failure
// simulation"): counters per API key and client address held by Durable Objects.
import { listDurableObjectIds } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rateLimitObjectNameOf } from './support/object-names.js';
import { call, type CallOptions, type CallResult, errorOf, PUBLIC_KEY, READONLY_KEY } from './support/worker.js';

/** A small limit: a burst of LIMIT + 1 requests overdraws the bucket. */
const LIMIT = 2;
const limited = { SANDBOX_RATE_LIMIT: String(LIMIT) };

/** A client address of its own (documentation range 2001:db8::/32), so no test shares a bucket. */
function newAddress(): string {
  const groups = Array.from(crypto.getRandomValues(new Uint16Array(6)), (group) => group.toString(16));
  return `2001:db8:${groups.join(':')}`;
}

function get(address: string, options: CallOptions = {}): Promise<CallResult> {
  return call('/v1/jobs?limit=1', { vars: limited, ...options, headers: { 'CF-Connecting-IP': address, ...options.headers } });
}

/**
 * Runs `attempt` on a fresh address until it finishes within one refill interval (1/LIMIT s):
 * a slower run (a loaded machine) got a token back mid-burst and proves nothing, so it is retried
 * rather than judged. The assertions run on the first fast run; a bounded number of tries.
 */
async function withinOneRefill<T>(attempt: (address: string) => Promise<T>): Promise<T> {
  // The first request of a configuration builds its app; keep that out of every timed run.
  await get(newAddress());
  for (let tries = 0; tries < 5; tries++) {
    const started = Date.now();
    const result = await attempt(newAddress());
    if (Date.now() - started < 1000 / LIMIT) return result;
  }
  throw new Error(`no burst finished within ${1000 / LIMIT} ms in 5 tries`);
}

async function burst(address: string, count: number, options: CallOptions = {}): Promise<CallResult[]> {
  const results: CallResult[] = [];
  for (let i = 0; i < count; i++) results.push(await get(address, options));
  return results;
}

function expectRateLimited(result: CallResult, policy: string): void {
  expect(result.status, result.text).toBe(429);
  expect(result.headers.get('Retry-After')).toMatch(/^[1-9]\d*$/);
  expect(result.headers.get('RateLimit-Policy')).toBe(policy);
  expect(result.headers.get('Content-Type')).toBe('application/json');
  const error = errorOf(result);
  expect(error).toEqual({
    type: 'rate_limit_error',
    code: 'rate_limited',
    message: expect.any(String),
    doc_url: '/docs/errors#rate_limited',
    request_id: result.headers.get('Request-Id'),
  });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('rate limit per API key and client address', () => {
  it('answers 429 rate_limited with Retry-After to the request after the limit', async () => {
    const results = await withinOneRefill((address) => burst(address, LIMIT + 1));
    expect(results.slice(0, LIMIT).map((result) => result.status)).toEqual(Array(LIMIT).fill(200));
    const over = results[LIMIT] as CallResult;
    expectRateLimited(over, `${LIMIT};w=1`);
    expect(over.headers.get('Retry-After')).toBe('1');
    for (const result of results) expect(result.headers.get('RateLimit-Policy')).toBe(`${LIMIT};w=1`);
  });

  it('gives another client address and another key buckets of their own', async () => {
    const { spent, otherAddress, otherKey } = await withinOneRefill(async (address) => ({
      spent: await burst(address, LIMIT + 1),
      otherAddress: await get(newAddress()),
      otherKey: await get(address, { key: READONLY_KEY }),
    }));
    expect(spent.map((result) => result.status)).toEqual([...Array(LIMIT).fill(200), 429]);
    expect(otherAddress.status, 'another address').toBe(200);
    expect(otherKey.status, 'another key, same address').toBe(200);
  });

  it('limits a caller without a key by its address, before the 401', async () => {
    const results = await withinOneRefill((address) => burst(address, LIMIT + 1, { key: null }));
    expect(results.slice(0, LIMIT).map((result) => result.status)).toEqual(Array(LIMIT).fill(401));
    expectRateLimited(results[LIMIT] as CallResult, `${LIMIT};w=1`);
  });

  it('keeps each bucket in a Durable Object of its own', async () => {
    const { address, decisions, after } = await withinOneRefill(async (address) => {
      await get(address);
      const stub = env.RATE_LIMITS.getByName(await rateLimitObjectNameOf(`Bearer ${PUBLIC_KEY}`, address));
      // The object counts on its own: the request above took one of its LIMIT tokens.
      const decisions = [];
      for (let i = 0; i < LIMIT; i++) decisions.push(await stub.take(LIMIT));
      return { address, decisions, after: await get(address) };
    });
    expect(decisions.map((decision) => decision.allowed)).toEqual([...Array(LIMIT - 1).fill(true), false]);
    expect(after.status).toBe(429);
    const stub = env.RATE_LIMITS.getByName(await rateLimitObjectNameOf(`Bearer ${PUBLIC_KEY}`, address));
    const ids = (await listDurableObjectIds(env.RATE_LIMITS)).map((id) => id.toString());
    expect(ids).toContain(stub.id.toString());
  });

  it('is off with SANDBOX_RATE_LIMIT=off: no bucket is consulted, and the policy header shows the default', async () => {
    const bucketOf = async (address: string) =>
      env.RATE_LIMITS.getByName(await rateLimitObjectNameOf(`Bearer ${PUBLIC_KEY}`, address)).id.toString();
    const objects = async () => (await listDurableObjectIds(env.RATE_LIMITS)).map((id) => id.toString());
    const address = newAddress();
    const results: CallResult[] = [];
    for (let i = 0; i < 30; i++) results.push(await get(address, { vars: { SANDBOX_RATE_LIMIT: 'off' } }));
    expect(results.map((result) => result.status)).toEqual(Array(30).fill(200));
    expect(results[0]?.headers.get('RateLimit-Policy')).toBe('25;w=1');
    // However long the requests took: no Durable Object was asked about this caller's bucket.
    expect(await objects()).not.toContain(await bucketOf(address));
    // The same look sees the bucket of a caller under a limit, so it can tell the two apart.
    const limitedAddress = newAddress();
    expect((await get(limitedAddress, { vars: { SANDBOX_RATE_LIMIT: '1' } })).status).toBe(200);
    expect(await objects()).toContain(await bucketOf(limitedAddress));
  });

  it('a live bucket takes a changed SANDBOX_RATE_LIMIT at once: a full bucket of the new size', async () => {
    // Date frozen (it runs the objects' buckets too, in this isolate): no token comes back between
    // the requests, however long they take.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(vi.getRealSystemTime());
    const address = newAddress();
    const statuses = async (limit: string, count: number) => {
      const results = await burst(address, count, { vars: { SANDBOX_RATE_LIMIT: limit } });
      return results.map((result) => result.status);
    };
    expect(await statuses('1', 2)).toEqual([200, 429]);
    expect(await statuses('3', 4)).toEqual([200, 200, 200, 429]);
  });

  it('uses the SANDBOX.md policy 25;w=1 by default, on every response', async () => {
    const address = { 'CF-Connecting-IP': newAddress() };
    expect((await call('/health', { headers: address })).headers.get('RateLimit-Policy')).toBe('25;w=1');
    expect((await call('/v1/jobs?limit=1', { headers: address })).headers.get('RateLimit-Policy')).toBe('25;w=1');
    expect((await call('/v1/nope', { headers: address })).headers.get('RateLimit-Policy')).toBe('25;w=1');
    const preflight = await call('/v1/jobs', {
      method: 'OPTIONS',
      key: null,
      headers: { ...address, Origin: 'https://app.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('RateLimit-Policy')).toBe('25;w=1');
  });
});

describe('Sandbox-Simulate', () => {
  const simulate = (value: string) =>
    call('/v1/jobs?limit=1', { headers: { 'Sandbox-Simulate': value, 'CF-Connecting-IP': newAddress() } });

  it('rate_limited forces the 429 of the rate limit', async () => {
    const result = await simulate('rate_limited');
    expectRateLimited(result, '25;w=1');
    expect(result.headers.get('Retry-After')).toBe('1');
  });

  it('api_error forces a 500 in the documented shape', async () => {
    const result = await simulate('api_error');
    expect(result.status, result.text).toBe(500);
    expect(errorOf(result)).toEqual({
      type: 'api_error',
      code: 'api_error',
      message: expect.any(String),
      doc_url: '/docs/errors#api_error',
      request_id: result.headers.get('Request-Id'),
    });
    expect(result.headers.get('Retry-After')).toBeNull();
  });

  it('any other value is a 400 naming the header', async () => {
    const result = await simulate('meteor_strike');
    expect(result.status, result.text).toBe(400);
    expect(errorOf(result)).toMatchObject({ code: 'parameter_invalid', param: 'Sandbox-Simulate' });
  });
});
