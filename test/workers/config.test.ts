// Configuration from the Worker's variables (SANDBOX.md, "Configuration"): the same names and
// meanings as on Node, read when the app is first built in an isolate.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { call, errorOf, PUBLIC_KEY } from './support/worker.js';

const TEAM_KEY = 'svc_test_team_ci';
/** docs/behaviour.md, "CORS": the headers exposed to a browser. */
const EXPOSED = 'Request-Id, RateLimit-Policy, Retry-After, Idempotent-Replayed, Sandbox-Fault';

afterEach(() => {
  vi.restoreAllMocks();
});
const KEY_TABLE = [{ key: TEAM_KEY, account: 'A', scopes: ['jobs:read'] }];

describe('Worker variables', () => {
  it('SANDBOX_KEYS as JSON text replaces the key table', async () => {
    const vars = { SANDBOX_KEYS: JSON.stringify(KEY_TABLE) };
    expect((await call('/v1/jobs?limit=1', { key: TEAM_KEY, vars })).status).toBe(200);
    const outOfScope = await call('/v1/clients?limit=1', { key: TEAM_KEY, vars });
    expect(outOfScope.status, outOfScope.text).toBe(403);
    const replaced = await call('/v1/jobs?limit=1', { key: PUBLIC_KEY, vars });
    expect(replaced.status, replaced.text).toBe(401);
    expect(errorOf(replaced)).toMatchObject({ code: 'api_key_invalid' });
  });

  it('SANDBOX_KEYS written as a TOML array in [vars] (a parsed value, not text) works too', async () => {
    const result = await call('/v1/jobs?limit=1', { key: TEAM_KEY, vars: { SANDBOX_KEYS: KEY_TABLE } });
    expect(result.status, result.text).toBe(200);
  });

  it('SANDBOX_SEED chooses the sample data, the same for every request', async () => {
    const seeded = { SANDBOX_SEED: 'workers-config-test' };
    const first = await call('/v1/clients?limit=5', { vars: seeded });
    const again = await call('/v1/clients?limit=5', { vars: seeded });
    const published = await call('/v1/clients?limit=5');
    expect(first.status, first.text).toBe(200);
    expect(again.text).toBe(first.text);
    expect(first.text).not.toBe(published.text);
  });

  it('a value that cannot be used answers 500 in the error shape, naming the variable', async () => {
    const result = await call('/v1/jobs', { vars: { SANDBOX_RATE_LIMIT: 'fast' } });
    expect(result.status, result.text).toBe(500);
    expect(result.headers.get('Content-Type')).toBe('application/json');
    expect(result.headers.get('Request-Id')).toMatch(/^req_[0-9A-Za-z]{24}$/);
    expect(errorOf(result)).toMatchObject({
      type: 'api_error',
      code: 'api_error',
      message: expect.stringContaining('SANDBOX_RATE_LIMIT'),
      request_id: result.headers.get('Request-Id'),
    });
  });

  it('the 500 of such a value: its message, the default policy, CORS for a browser only, and the same message in the log', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const vars = { SANDBOX_RATE_LIMIT: 'fast' };
    const plain = await call('/v1/jobs', { vars });
    const browser = await call('/v1/jobs', { vars, headers: { Origin: 'https://app.example' } });
    for (const result of [plain, browser]) {
      expect(result.status, result.text).toBe(500);
      // docs/workers.md: the message begins so, then says what the variable must be.
      expect(errorOf(result).message).toMatch(/^The sandbox is misconfigured: SANDBOX_RATE_LIMIT must be /);
      expect(result.headers.get('RateLimit-Policy')).toBe('25;w=1');
    }
    expect(plain.headers.get('Access-Control-Allow-Origin')).toBeNull();
    expect(plain.headers.get('Access-Control-Expose-Headers')).toBeNull();
    expect(browser.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(browser.headers.get('Access-Control-Expose-Headers')).toBe(EXPOSED);
    expect(logged.mock.calls).toEqual([[errorOf(plain).message], [errorOf(browser).message]]);
  });
});
