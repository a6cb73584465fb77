// The key table the sandbox ships, as SANDBOX.md and the README list it, through HTTP on a sandbox
// with no key configuration: each key's account and, for each of the reference's endpoints, whether
// its scopes let it past the scope check. Written from that table, never from src/.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, testApp, type TestApp } from '../helpers.js';
import { ENDPOINTS, type ReferenceEndpoint, SCOPES } from './endpoints.js';
import { ERROR_CODES } from './limits.js';

/** SANDBOX.md's table: the account each key opens and the scopes it holds. */
const DEFAULT_KEYS = [
  { key: 'svc_test_sandbox_public', account: 'A', scopes: SCOPES },
  { key: 'svc_test_sandbox_readonly', account: 'A', scopes: SCOPES.filter((scope) => scope.endsWith(':read')) },
  { key: 'svc_test_sandbox_jobs', account: 'A', scopes: ['jobs:read', 'jobs:write'] },
  { key: 'svc_test_sandbox_other', account: 'B', scopes: SCOPES },
] as const;
const REVOKED = 'svc_test_sandbox_revoked';

let app: TestApp;
/** The first client of each account, as a key of that account with clients:read lists it. */
const firstClient = new Map<string, string>();
/** A record ID of account A per collection, for the paths with {id}. */
const ids = new Map<string, string>();

beforeAll(async () => {
  app = testApp();
  for (const [account, key] of [
    ['A', 'svc_test_sandbox_public'],
    ['B', 'svc_test_sandbox_other'],
  ]) {
    firstClient.set(account as string, (await call(app, '/v1/clients?limit=1', { key })).json.data[0].id);
  }
  for (const collection of new Set(ENDPOINTS.map((endpoint) => endpoint.path.split('/')[2] as string))) {
    const page = await call(app, `/v1/${collection}?limit=1`, { key: 'svc_test_sandbox_public' });
    ids.set(collection, page.json.data[0].id);
  }
});

function concrete(endpoint: ReferenceEndpoint): string {
  return endpoint.path.replace('{id}', ids.get(endpoint.path.split('/')[2] as string) ?? 'missing');
}

it('the table has nine :read scopes, as the readonly key is described', () => {
  expect(DEFAULT_KEYS[1].scopes).toHaveLength(9);
});

it('accounts A and B hold different records', () => {
  expect(firstClient.get('A')).not.toBe(firstClient.get('B'));
});

describe.each(DEFAULT_KEYS.map((entry) => [entry.key, entry] as const))('%s', (key, entry) => {
  it(`opens account ${entry.account}`, async () => {
    if ((entry.scopes as readonly string[]).includes('clients:read')) {
      const page = await call(app, '/v1/clients?limit=1', { key });
      expect(page.json.data[0].id).toBe(firstClient.get(entry.account));
    } else {
      // A key without clients:read (the jobs key): its jobs are account A's.
      const mine = await call(app, '/v1/jobs?limit=1', { key });
      const theirs = await call(app, '/v1/jobs?limit=1', { key: 'svc_test_sandbox_public' });
      expect(mine.json.data[0].id).toBe(theirs.json.data[0].id);
    }
  });

  it.each(ENDPOINTS.map((endpoint) => [`${endpoint.method} ${endpoint.path}`, endpoint] as const))(
    '%s: past the scope check exactly when the key holds its scope',
    async (_, endpoint) => {
      const held = (entry.scopes as readonly string[]).includes(endpoint.scope);
      const result = await call(app, concrete(endpoint), {
        method: endpoint.method,
        key,
        body: endpoint.method === 'GET' || endpoint.method === 'DELETE' ? undefined : {},
      });
      if (held) expect(result.status, result.text).not.toBe(ERROR_CODES.scope_missing.status);
      else {
        expect(result.status, result.text).toBe(ERROR_CODES.scope_missing.status);
        expect(result.json.error.code).toBe('scope_missing');
      }
    },
  );
});

describe(REVOKED, () => {
  it.each(ENDPOINTS.map((endpoint) => [`${endpoint.method} ${endpoint.path}`, endpoint] as const))(
    '%s: always 401 api_key_invalid',
    async (_, endpoint) => {
      const result = await call(app, concrete(endpoint), {
        method: endpoint.method,
        key: REVOKED,
        body: endpoint.method === 'GET' || endpoint.method === 'DELETE' ? undefined : {},
      });
      expect(result.status, result.text).toBe(ERROR_CODES.api_key_invalid.status);
      expect(result.json.error.code).toBe('api_key_invalid');
    },
  );
});
