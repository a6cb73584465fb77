// The error shape and headers, made in one place (reference, "Errors"; SANDBOX.md, "Errors").
import { describe, expect, it, vi } from 'vitest';
import { TokenBucketLimiter } from '../src/rate-limit/token-bucket.js';
import { call, PUBLIC_KEY, testApp } from './helpers.js';

const app = testApp();

const ERROR_MEMBERS = ['type', 'code', 'message', 'param', 'doc_url', 'request_id'];

function expectErrorShape(result: Awaited<ReturnType<typeof call>>, status: number, code: string) {
  expect(result.status, result.text).toBe(status);
  expect(Object.keys(result.json)).toEqual(['error']);
  const error = result.json.error;
  for (const member of Object.keys(error)) expect(ERROR_MEMBERS).toContain(member);
  expect(error.code).toBe(code);
  expect(typeof error.message).toBe('string');
  expect(error.doc_url).toBe(`/docs/errors#${code}`);
  expect(error.request_id).toMatch(/^req_[0-9A-Za-z]{24}$/);
  expect(error.request_id).toBe(result.headers.get('Request-Id'));
  expect(result.headers.get('Content-Type')).toBe('application/json');
}

describe('unknown paths and methods', () => {
  it('answers 404 resource_missing for an unknown path under /v1, after auth', async () => {
    const result = await call(app, '/v1/trucks');
    expectErrorShape(result, 404, 'resource_missing');
    expect(result.json.error.message).toBe('Unrecognized request URL (GET /v1/trucks).');
    expect(result.json.error).not.toHaveProperty('param');
    expect((await call(app, '/v1/trucks', { key: null })).status).toBe(401);
  });

  it('answers 404 for a path outside /v1 without asking for a key', async () => {
    expectErrorShape(await call(app, '/v2/jobs', { key: null }), 404, 'resource_missing');
  });

  it.each([
    ['GET', '/v1/webhook_endpoints/we_00000000000000', 'DELETE'],
    ['PUT', '/v1/jobs', 'GET, POST'],
    ['DELETE', '/v1/jobs/job_00000000000000', 'GET, PATCH'],
    ['GET', '/v1/jobs/job_00000000000000/cancel', 'POST'],
    ['POST', '/v1/invoices', 'GET'],
    ['PATCH', '/v1/events/evt_00000000000000', 'GET'],
  ])('answers %s %s with 405 and Allow: %s', async (method, path, allow) => {
    const result = await call(app, path, { method });
    expectErrorShape(result, 405, 'method_not_allowed');
    expect(result.headers.get('Allow')).toBe(allow);
  });

  it('answers 404 for IDs with the wrong prefix or that do not exist', async () => {
    for (const path of ['/v1/jobs/cont_00000000000000', '/v1/jobs/job_00000000000000', '/v1/clients/nothing', '/v1/events/%00']) {
      const result = await call(app, path);
      expectErrorShape(result, 404, 'resource_missing');
      expect(result.json.error.param).toBe('id');
    }
  });
});

describe('headers on every response', () => {
  it.each([
    ['a success', '/v1/jobs?limit=1', PUBLIC_KEY],
    ['a 401', '/v1/jobs', null],
    ['a 404', '/v1/nothing', PUBLIC_KEY],
    ['the health check', '/health', null],
  ])('%s carries Request-Id and RateLimit-Policy, and CORS headers for a browser', async (_, path, key) => {
    const result = await call(app, path, { key });
    expect(result.headers.get('Request-Id')).toMatch(/^req_[0-9A-Za-z]{24}$/);
    expect(result.headers.get('RateLimit-Policy')).toBe('25;w=1');
    expect(result.headers.get('Access-Control-Allow-Origin')).toBeNull();
    const fromBrowser = await call(app, path, { key, headers: { Origin: 'https://docs.example.com' } });
    expect(fromBrowser.headers.get('Request-Id')).toMatch(/^req_[0-9A-Za-z]{24}$/);
    expect(fromBrowser.headers.get('RateLimit-Policy')).toBe('25;w=1');
    expect(fromBrowser.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(fromBrowser.headers.get('Access-Control-Expose-Headers')).toBe(
      'Request-Id, RateLimit-Policy, Retry-After, Idempotent-Replayed, Sandbox-Fault',
    );
  });

  it('gives every request its own Request-Id', async () => {
    const ids = new Set<string | null>();
    for (let i = 0; i < 20; i++) ids.add((await call(app, '/health')).headers.get('Request-Id'));
    expect(ids.size).toBe(20);
  });

  it('answers a CORS preflight without a key, with the policy header', async () => {
    const response = await app.request('/v1/jobs', {
      method: 'OPTIONS',
      headers: { Origin: 'https://docs.example.com', 'Access-Control-Request-Method': 'POST' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(response.headers.get('Access-Control-Allow-Methods')).toBe('GET, POST');
    expect(response.headers.get('Access-Control-Allow-Headers')).toContain('Idempotency-Key');
    expect(response.headers.get('RateLimit-Policy')).toBe('25;w=1');
  });

  it('answers /health with 200 and no key', async () => {
    // An app of its own: the health route is registered as the app is made, inside this test.
    const result = await call(testApp(), '/health', { key: null });
    expect(result.status).toBe(200);
    expect(result.json).toEqual({ status: 'ok' });
  });
});

describe('authorization header forms', () => {
  it.each([
    ['no header', undefined, 'api_key_missing'],
    ['Bearer with no key', 'Bearer', 'api_key_missing'],
    ['Bearer and spaces', 'Bearer    ', 'api_key_missing'],
    ['another scheme', `Basic ${PUBLIC_KEY}`, 'api_key_invalid'],
    ['a bare key', PUBLIC_KEY, 'api_key_invalid'],
    ['a key with a suffix', `Bearer ${PUBLIC_KEY}x`, 'api_key_invalid'],
    ['a key prefix', 'Bearer svc_test_sandbox_publi', 'api_key_invalid'],
  ])('%s → 401 %s', async (_, header, code) => {
    const result = await call(app, '/v1/jobs', { key: null, headers: header === undefined ? {} : { Authorization: header } });
    expectErrorShape(result, 401, code);
    expect(result.json.error.type).toBe('authentication_error');
  });

  it('accepts the scheme in any case', async () => {
    const result = await call(app, '/v1/jobs?limit=1', { key: null, headers: { Authorization: `bearer ${PUBLIC_KEY}` } });
    expect(result.status, result.text).toBe(200);
  });
});

describe('Sandbox-Simulate', () => {
  it('forces a 429 rate_limited with Retry-After', async () => {
    const result = await call(app, '/v1/jobs', { headers: { 'Sandbox-Simulate': 'rate_limited' } });
    expectErrorShape(result, 429, 'rate_limited');
    expect(result.json.error.type).toBe('rate_limit_error');
    expect(result.headers.get('Retry-After')).toMatch(/^\d+$/);
  });

  it('forces a 500 api_error', async () => {
    const result = await call(app, '/v1/jobs', { headers: { 'Sandbox-Simulate': 'api_error' } });
    expectErrorShape(result, 500, 'api_error');
    expect(result.json.error.type).toBe('api_error');
  });

  it('refuses an unknown simulation with 400 naming the header', async () => {
    const result = await call(app, '/v1/jobs', { headers: { 'Sandbox-Simulate': 'meteor' } });
    expectErrorShape(result, 400, 'parameter_invalid');
    expect(result.json.error.param).toBe('Sandbox-Simulate');
  });

  it('still checks the key first', async () => {
    const result = await call(app, '/v1/jobs', { key: null, headers: { 'Sandbox-Simulate': 'api_error' } });
    expect(result.status).toBe(401);
  });
});

describe('rate limits', () => {
  it('answers 429 with Retry-After once a key and address exceed the limit, each bucket on its own', async () => {
    let address = '203.0.113.1';
    // A stopped clock: no token comes back while the test runs, however slow the machine.
    const rateLimiter = new TokenBucketLimiter({ perSecond: 3, now: () => 1_000_000 });
    const limited = testApp({ SANDBOX_RATE_LIMIT: '3' }, { clientAddress: () => address, rateLimiter });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await call(limited, '/v1/jobs?limit=1')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await call(limited, '/v1/jobs?limit=1');
    expectErrorShape(refused, 429, 'rate_limited');
    expect(refused.headers.get('Retry-After')).toBe('1');
    expect(refused.headers.get('RateLimit-Policy')).toBe('3;w=1');
    // Another key, or the same key from another address, has a bucket of its own.
    expect((await call(limited, '/v1/jobs?limit=1', { key: 'svc_test_sandbox_readonly' })).status).toBe(200);
    address = '203.0.113.2';
    expect((await call(limited, '/v1/jobs?limit=1')).status).toBe(200);
  });

  it('is off when configured so', async () => {
    // The clock stopped before the apps are made (their limiters read Date.now): with a limit of
    // 1 the second request is refused however fast the machine, so 60 answered show it is off.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const limited = testApp({ SANDBOX_RATE_LIMIT: '1' });
      const unlimited = testApp({ SANDBOX_RATE_LIMIT: 'off' });
      expect((await call(limited, '/v1/jobs?limit=1')).status).toBe(200);
      expect((await call(limited, '/v1/jobs?limit=1')).status).toBe(429);
      for (let i = 0; i < 60; i++) expect((await call(unlimited, '/v1/jobs?limit=1')).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('a real fault', () => {
  it("is the reference's 500, which says a retry is safe, and one line for the operator naming the request", async () => {
    const fault = new Error('the store is down');
    const idempotency = {
      claim: () => Promise.reject(fault),
      complete: () => Promise.resolve(),
      release: () => Promise.resolve(),
    };
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const app = testApp({}, { idempotency });
      const result = await call(app, '/v1/clients', {
        method: 'POST',
        body: { name: 'Depot', kind: 'business' },
        headers: { 'Idempotency-Key': 'fault-1' },
      });
      expectErrorShape(result, 500, 'api_error');
      expect(result.json.error).toMatchObject({
        type: 'api_error',
        message: 'An internal error occurred. Retry with the same Idempotency-Key.',
      });
      expect(logged.mock.calls).toEqual([[`[${result.headers.get('Request-Id')}] POST /v1/clients:`, fault]]);
    } finally {
      logged.mockRestore();
    }
  });
});
