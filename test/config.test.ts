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

describe('one schema, each way in named as it came (issue #25)', () => {
  it('a variable names itself, an empty variable counts as unset', () => {
    expect(() => readConfig({ SANDBOX_CLOCK: 'soon' })).toThrow(/^SANDBOX_CLOCK must be a UTC time in RFC 3339 with seconds/);
    expect(() => readConfig({ SANDBOX_FAULTS: 'api_error=2' })).toThrow(/^SANDBOX_FAULTS must be a comma list/);
    expect(() => readConfig({ SANDBOX_WEBHOOK_URL: 'http://127.0.0.1:4242/', SANDBOX_WEBHOOK_EVENTS: 'invoice.paid' })).toThrow(
      /^SANDBOX_WEBHOOK_EVENTS must be one of the types writes emit: job\.created, job\.scheduled, container\.received; received "invoice\.paid"\./,
    );
    expect(() => readConfig({ SANDBOX_KEYS: '[{"key":"svc_test_x","account":"A","scopes":"*","revokd":true}]' })).toThrow(
      /^SANDBOX_KEYS is not a valid key table: entry \[0\]: unknown field revokd\. Did you mean "revoked"\?/,
    );
    expect(() => readConfig({ SANDBOX_KEYS: '[{"key":"svc_test_x","account":"A","scopes":"jobs:read"}]' })).toThrow(
      /entry \[0\]: scopes must be "\*" \(every scope\) or an array of scopes.*Put it in an array: \["jobs:read"\]\./,
    );
    expect(() => readConfig({ SANDBOX_KEYS: '[{"key":"svc_test_x","scopes":"*"}]' })).toThrow(
      /^SANDBOX_KEYS is not a valid key table: entry \[0\]: account is missing; every key needs key, account and scopes\./,
    );
    expect(readConfig({ SANDBOX_SEED: '', SANDBOX_RATE_LIMIT: ' ', SANDBOX_KEYS: '' })).toMatchObject({
      seed: 'waste-ops-sandbox-v1',
      rateLimit: 25,
    });
  });

  it('the same values read the same way from the variables as from the options', () => {
    const fromVariables = readConfig({
      SANDBOX_SEED: 'seed-1',
      SANDBOX_RATE_LIMIT: '7',
      SANDBOX_CLOCK: '2026-03-02T17:00:00Z',
      SANDBOX_WEBHOOK_URL: 'http://127.0.0.1:4242/hooks',
      SANDBOX_WEBHOOK_EVENTS: 'job.created, job.created',
      SANDBOX_FAULTS: 'api_error=0.5',
    });
    expect(fromVariables).toMatchObject({
      seed: 'seed-1',
      rateLimit: 7,
      clock: new Date('2026-03-02T17:00:00Z'),
      webhook: { url: 'http://127.0.0.1:4242/hooks', secret: undefined, events: ['job.created'] },
      faults: [{ fault: 'api_error', fraction: 0.5 }],
    });
  });
});
