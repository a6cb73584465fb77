// Each error code of the reference, provoked through HTTP, answers its status, SANDBOX.md's type,
// and the reference's error shape: error.type, code, message, param (only when a field is at
// fault), doc_url (/docs/errors#<code>) and request_id (req_…, the Request-Id header).
import { describe, expect, it } from 'vitest';
import { call, type CallOptions, type CallResult, testApp } from '../helpers.js';
import { ERROR_CODES, ERROR_FIELDS, type ErrorCode } from './limits.js';

const app = testApp({
  SANDBOX_KEYS: JSON.stringify([
    { key: 'svc_test_sandbox_public', account: 'A', scopes: '*' },
    { key: 'svc_test_sandbox_readonly', account: 'A', scopes: ['clients:read'] },
    { key: 'svc_test_sandbox_revoked', account: 'A', scopes: '*', revoked: true },
  ]),
});

async function firstOf(path: string): Promise<{ id: string }> {
  return (await call(app, path)).json.data[0];
}

/** One request that must answer each code, with the param it must name (null: none). */
const CASES: Record<ErrorCode, () => Promise<[string, CallOptions, string | null]>> = {
  parameter_missing: async () => ['/v1/clients', { method: 'POST', body: { kind: 'laboratory' } }, 'name'],
  parameter_invalid: async () => ['/v1/jobs?limit=0', {}, 'limit'],
  api_key_missing: async () => ['/v1/jobs', { key: null }, null],
  api_key_invalid: async () => ['/v1/jobs', { key: 'svc_test_sandbox_revoked' }, null],
  scope_missing: async () => ['/v1/jobs', { key: 'svc_test_sandbox_readonly' }, null],
  resource_missing: async () => ['/v1/clients/cli_00000000000000', {}, 'id'],
  method_not_allowed: async () => ['/v1/clients', { method: 'PUT', body: {} }, null],
  idempotency_conflict: async () => {
    const headers = { 'Idempotency-Key': `reference-errors-${Math.random()}` };
    expect((await call(app, '/v1/clients', { method: 'POST', headers, body: { name: 'A', kind: 'laboratory' } })).status).toBe(201);
    return ['/v1/clients', { method: 'POST', headers, body: { name: 'B', kind: 'laboratory' } }, 'Idempotency-Key'];
  },
  state_invalid: async () => [`/v1/jobs/${(await firstOf('/v1/jobs?status=closed&limit=1')).id}/cancel`, { method: 'POST' }, null],
  rate_limited: async () => ['/v1/jobs', { headers: { 'Sandbox-Simulate': 'rate_limited' } }, null],
  api_error: async () => ['/v1/jobs', { headers: { 'Sandbox-Simulate': 'api_error' } }, null],
};

function expectReferenceError(result: CallResult, code: ErrorCode, param: string | null): void {
  expect(result.status, result.text).toBe(ERROR_CODES[code].status);
  expect(Object.keys(result.json)).toEqual(['error']);
  const error = result.json.error;
  const fields = ERROR_FIELDS.filter((field) => field !== 'param' || param !== null);
  expect(Object.keys(error).sort()).toEqual([...fields].sort());
  expect(error).toMatchObject({ type: ERROR_CODES[code].type, code, doc_url: `/docs/errors#${code}` });
  if (param !== null) expect(error.param).toBe(param);
  expect(typeof error.message === 'string' && error.message.length > 0).toBe(true);
  expect(error.request_id).toMatch(/^req_/);
  expect(result.headers.get('Request-Id')).toBe(error.request_id);
}

describe.each(Object.keys(ERROR_CODES) as ErrorCode[])('%s', (code) => {
  it(`answers ${ERROR_CODES[code].status} ${ERROR_CODES[code].type} in the reference's shape`, async () => {
    const [path, options, param] = await CASES[code]();
    expectReferenceError(await call(app, path, options), code, param);
  });
});

describe('headers of the errors that say more', () => {
  it('a 405 lists the methods the path takes; a 429 says how long to wait', async () => {
    const wrong = await call(app, '/v1/clients', { method: 'PUT', body: {} });
    expect(wrong.headers.get('Allow')?.split(/,\s*/).sort()).toEqual(['GET', 'POST']);
    const limited = await call(app, '/v1/jobs', { headers: { 'Sandbox-Simulate': 'rate_limited' } });
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
  });
});
