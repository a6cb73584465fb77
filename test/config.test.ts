// Configuration (SANDBOX.md, "Configuration"): a value that cannot be used stops start-up with a
// message naming it; a key table replaces the default one.
import { describe, expect, it } from 'vitest';
import { readConfig } from '../src/config.js';
import { call, testApp } from './helpers.js';

describe('readConfig', () => {
  it('has the published defaults', () => {
    const config = readConfig({});
    expect(config.seed).toBe('waste-ops-sandbox-v1');
    expect(config.rateLimit).toBe(25);
    expect(config.keys.map((key) => key.key)).toEqual([
      'svc_test_sandbox_public',
      'svc_test_sandbox_readonly',
      'svc_test_sandbox_jobs',
      'svc_test_sandbox_other',
      'svc_test_sandbox_revoked',
    ]);
  });

  it.each([
    [{ SANDBOX_RATE_LIMIT: 'fast' }, /SANDBOX_RATE_LIMIT/],
    [{ SANDBOX_RATE_LIMIT: '0' }, /SANDBOX_RATE_LIMIT/],
    [{ SANDBOX_KEYS: '{not json' }, /SANDBOX_KEYS is not valid JSON/],
    [{ SANDBOX_KEYS: '[]' }, /SANDBOX_KEYS is not a valid key table/],
    [{ SANDBOX_KEYS: '[{"key":"svc_live_x","account":"A","scopes":"*"}]' }, /svc_test_/],
    [{ SANDBOX_KEYS: '[{"key":"svc_test_x","account":"C","scopes":"*"}]' }, /account/],
    [{ SANDBOX_KEYS: '[{"key":"svc_test_x","account":"A","scopes":["jobs:fly"]}]' }, /scopes/],
    [{ SANDBOX_KEYS: '[{"key":"svc_test_x","account":"A","scopes":"*"},{"key":"svc_test_x","account":"B","scopes":"*"}]' }, /twice/],
  ])('refuses %j', (sources, message) => {
    expect(() => readConfig(sources)).toThrow(message);
  });

  it('off switches the rate limit off', () => {
    expect(readConfig({ SANDBOX_RATE_LIMIT: 'off' }).rateLimit).toBeNull();
    expect(readConfig({ SANDBOX_RATE_LIMIT: ' OFF ' }).rateLimit).toBeNull();
  });

  it('a key table replaces the default keys', async () => {
    const app = testApp({ SANDBOX_KEYS: '[{"key":"svc_test_team_ci","account":"B","scopes":["jobs:read"]}]' });
    expect((await call(app, '/v1/jobs?limit=1', { key: 'svc_test_team_ci' })).status).toBe(200);
    expect((await call(app, '/v1/clients', { key: 'svc_test_team_ci' })).status).toBe(403);
    expect((await call(app, '/v1/jobs?limit=1', { key: 'svc_test_sandbox_public' })).status).toBe(401);
  });
});
