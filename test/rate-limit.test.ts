// The rate limit through HTTP, on a stopped clock moved by hand (SANDBOX.md, "Rate limits"): a
// token bucket per key and address that refills its rate each second, 429 rate_limited with
// Retry-After in whole seconds once it is empty. No wall clock: time passes only when a test says.
import { describe, expect, it } from 'vitest';
import { TokenBucketLimiter } from '../src/rate-limit/token-bucket.js';
import { call, testApp } from './helpers.js';
import { ERROR_CODES } from './reference/limits.js';

function limitedApp(perSecond: number) {
  const clock = { now: 1_000_000 };
  const rateLimiter = new TokenBucketLimiter({ perSecond, now: () => clock.now });
  const app = testApp({ SANDBOX_RATE_LIMIT: String(perSecond) }, { rateLimiter, clientAddress: () => '203.0.113.9' });
  const status = async () => (await call(app, '/v1/jobs?limit=1')).status;
  return { app, clock, status };
}

describe('rate limit', () => {
  it('refuses every request over the limit, each with Retry-After: 1, until time passes', async () => {
    const { app, status } = limitedApp(3);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push(await status());
    expect(statuses).toEqual([200, 200, 200]);
    for (let i = 0; i < 3; i++) {
      const refused = await call(app, '/v1/jobs?limit=1');
      expect(refused.status, refused.text).toBe(ERROR_CODES.rate_limited.status);
      expect(refused.json.error).toMatchObject({ code: 'rate_limited', type: ERROR_CODES.rate_limited.type });
      expect(refused.headers.get('Retry-After')).toBe('1');
      expect(refused.headers.get('RateLimit-Policy')).toBe('3;w=1');
    }
  });

  it('gives back the rate in a second, a quarter of it in a quarter second', async () => {
    const { clock, status } = limitedApp(4);
    for (let i = 0; i < 4; i++) expect(await status()).toBe(200);
    expect(await status()).toBe(429);
    clock.now += 250;
    expect(await status()).toBe(200);
    expect(await status()).toBe(429);
    clock.now += 500;
    expect([await status(), await status(), await status()]).toEqual([200, 200, 429]);
    clock.now += 1000;
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push(await status());
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });

  it('at 1 a second, half a second after a request the wait is still 1 s', async () => {
    const { app, clock, status } = limitedApp(1);
    expect(await status()).toBe(200);
    clock.now += 500;
    const refused = await call(app, '/v1/jobs?limit=1');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toBe('1');
    clock.now += 499;
    expect(await status()).toBe(429);
    clock.now += 501;
    expect(await status()).toBe(200);
  });
});

describe('the 429 of the rate limit', () => {
  it('says how long to wait, in words, as Retry-After does in seconds', async () => {
    const { app, status } = limitedApp(1);
    expect(await status()).toBe(200);
    const refused = await call(app, '/v1/jobs?limit=1');
    expect(refused.status, refused.text).toBe(429);
    expect(refused.json).toEqual({
      error: {
        type: 'rate_limit_error',
        code: 'rate_limited',
        message: 'Too many requests. Retry after 1 second.',
        doc_url: '/docs/errors#rate_limited',
        request_id: refused.headers.get('Request-Id'),
      },
    });
    expect(refused.headers.get('Retry-After')).toBe('1');
  });

  it('counts the seconds in the plural when a limiter asks for more than one', async () => {
    // The limiters of the configuration refill at least one request a second, so they never ask
    // for more than 1 s; a limiter given to the app may.
    const rateLimiter = { take: () => ({ allowed: false as const, retryAfterSeconds: 2 }) };
    const app = testApp({}, { rateLimiter });
    const refused = await call(app, '/v1/jobs?limit=1');
    expect(refused.status, refused.text).toBe(429);
    expect(refused.json.error.message).toBe('Too many requests. Retry after 2 seconds.');
    expect(refused.headers.get('Retry-After')).toBe('2');
  });
});

describe('a limiter that answers later (as the Worker asks a Durable Object)', () => {
  it('lets the request on when it allows it, and answers 429 when it refuses', async () => {
    const decisions = [{ allowed: true as const }, { allowed: false as const, retryAfterSeconds: 1 }];
    const asked: string[] = [];
    const rateLimiter = {
      take: async (bucket: string) => {
        asked.push(bucket);
        const decision = decisions.shift();
        if (decision === undefined) throw new Error('asked once too often');
        return decision;
      },
    };
    const app = testApp({}, { rateLimiter, clientAddress: () => '203.0.113.7' });
    const allowed = await call(app, '/v1/jobs?limit=1');
    expect(allowed.status, allowed.text).toBe(200);
    expect(allowed.json.data).toHaveLength(1);
    const refused = await call(app, '/v1/jobs?limit=1');
    expect(refused.status, refused.text).toBe(429);
    expect(refused.json.error.message).toBe('Too many requests. Retry after 1 second.');
    expect(refused.headers.get('Retry-After')).toBe('1');
    // One bucket per Authorization header and client address, NUL between (docs/workers.md).
    expect(asked).toEqual(['Bearer svc_test_sandbox_public\u0000203.0.113.7', 'Bearer svc_test_sandbox_public\u0000203.0.113.7']);
  });
});

describe('the bucket of a caller with no key', () => {
  it('is its address alone: no Authorization header and an empty one share it', async () => {
    const { app } = limitedApp(1);
    const first = await call(app, '/v1/jobs?limit=1', { key: null });
    expect(first.status, first.text).toBe(401);
    const second = await call(app, '/v1/jobs?limit=1', { key: null, headers: { Authorization: '' } });
    expect(second.status, second.text).toBe(429);
  });
});
