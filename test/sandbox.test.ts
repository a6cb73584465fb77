// createSandbox, the package's in-process sandbox (issue #7, item 6): its options for seed, keys,
// rate limit and clock, through its fetch as an integrator's test suite would use it.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../src/sandbox.js';

const get = (sandbox: ReturnType<typeof createSandbox>, path: string, key = 'svc_test_sandbox_public') =>
  sandbox.fetch(new Request(`https://sandbox.test${path}`, { headers: { Authorization: `Bearer ${key}` } }));

describe('createSandbox', () => {
  it('answers with the published seed and no rate limit by default', async () => {
    const sandbox = createSandbox();
    expect(sandbox.seed).toBe('waste-ops-sandbox-v1');
    const statuses = await Promise.all(Array.from({ length: 60 }, () => get(sandbox, '/v1/jobs?limit=1').then((r) => r.status)));
    expect(new Set(statuses)).toEqual(new Set([200]));
  });

  it('takes another seed, a key table and a rate limit', async () => {
    const sandbox = createSandbox({ seed: 'ci-seed', keys: [{ key: 'svc_test_ci', account: 'A', scopes: ['jobs:read'] }], rateLimit: 2 });
    expect((await get(sandbox, '/v1/jobs?limit=1', 'svc_test_ci')).status).toBe(200);
    expect((await get(sandbox, '/v1/jobs?limit=1')).status).toBe(401);
    expect((await get(sandbox, '/v1/clients?limit=1', 'svc_test_ci')).status).toBe(403);
    const limited = await get(sandbox, '/v1/jobs?limit=1', 'svc_test_ci');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('RateLimit-Policy')).toBe('2;w=1');
    const defaults = await (await get(createSandbox(), '/v1/jobs?limit=1')).json();
    const seeded = await (await get(createSandbox({ seed: 'ci-seed' }), '/v1/jobs?limit=1')).json();
    expect(seeded.data[0].id).not.toBe(defaults.data[0].id);
  });

  it('stamps writes with the clock it is given', async () => {
    const sandbox = createSandbox({ now: () => new Date('2030-01-02T03:04:05.678Z') });
    const response = await sandbox.fetch(
      new Request('https://sandbox.test/v1/webhook_endpoints', {
        method: 'POST',
        headers: { Authorization: 'Bearer svc_test_sandbox_public', 'Content-Type': 'application/json' },
        body: JSON.stringify({ url: 'https://example.com/hooks', events: ['*'] }),
      }),
    );
    expect((await response.json()).created_at).toBe('2030-01-02T03:04:05Z');
  });

  it('throws, naming the option, when an option cannot be used', () => {
    expect(() => createSandbox({ rateLimit: 0 })).toThrow(
      /^createSandbox\(\{ rateLimit \}\) must be a whole number of requests per second \(1 or more\) or "off"; received 0\.$/,
    );
    expect(() => createSandbox({ keys: [{ key: 'svc_live_x', account: 'A', scopes: '*' }] })).toThrow(
      /^createSandbox\(\{ keys \}\) is not a valid key table: entry \[0\]: key must begin with svc_test_/,
    );
    expect(() => createSandbox({ keys: [{ key: 'svc_live_x', account: 'A', scopes: '*' }] })).toThrow(TypeError);
  });

  it('refuses an option it does not know, with the one it was probably meant to be', () => {
    expect(() => createSandbox({ sede: 'x' } as never)).toThrow(
      /^createSandbox: unknown option sede\. Did you mean "seed"\? The options are seed, rateLimit, keys, clock, webhook, faults, now, onEvent, clientAddress\.$/,
    );
    expect(() => createSandbox({ ratelimit: 5 } as never)).toThrow(/Did you mean "rateLimit"\?/);
  });

  it('refuses an empty seed rather than using the default one', () => {
    expect(() => createSandbox({ seed: '' })).toThrow(/^createSandbox\(\{ seed \}\) must not be empty/);
    expect(() => createSandbox({ seed: '  ' })).toThrow(/must not be empty/);
  });
});
