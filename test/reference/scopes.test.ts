// Each endpoint's scope as the reference's endpoint tables give it (test/reference/endpoints.ts):
// a key holding only that scope gets past the scope check, a key holding every other scope gets
// 403 scope_missing. The key table is the sandbox's configurable one (SANDBOX_KEYS).
import { beforeAll, describe, expect, it } from 'vitest';
import { call, testApp, type TestApp } from '../helpers.js';
import { ENDPOINTS, type ReferenceEndpoint, SCOPES } from './endpoints.js';
import { ERROR_CODES } from './limits.js';

const only = (scope: string) => `svc_test_only_${scope.replace(':', '_')}`;
const without = (scope: string) => `svc_test_without_${scope.replace(':', '_')}`;
const KEY_TABLE = SCOPES.flatMap((scope) => [
  { key: only(scope), account: 'A', scopes: [scope] },
  { key: without(scope), account: 'A', scopes: SCOPES.filter((other) => other !== scope) },
]);

let app: TestApp;
/** A record ID of account A per path prefix, for the paths with {id}. */
const ids = new Map<string, string>();

function concrete(endpoint: ReferenceEndpoint): string {
  const collection = endpoint.path.split('/')[2] as string;
  return endpoint.path.replace('{id}', ids.get(collection) ?? 'missing');
}

beforeAll(async () => {
  app = testApp({ SANDBOX_KEYS: JSON.stringify(KEY_TABLE) });
  for (const collection of new Set(ENDPOINTS.map((endpoint) => endpoint.path.split('/')[2] as string))) {
    const scope = ENDPOINTS.find((endpoint) => endpoint.method === 'GET' && endpoint.path === `/v1/${collection}`)?.scope as string;
    const query = collection === 'jobs' ? '?status=draft&limit=1' : '?limit=1';
    const page = await call(app, `/v1/${collection}${query}`, { key: only(scope) });
    expect(page.status, page.text).toBe(200);
    ids.set(collection, page.json.data[0].id);
  }
});

describe('the reference lists sixteen scopes', () => {
  it('each is a scope a key can hold', () => {
    expect(new Set(SCOPES).size).toBe(16);
    expect(SCOPES.filter((scope) => scope.startsWith('invoices:') || scope.startsWith('events:'))).toEqual([
      'invoices:read',
      'events:read',
    ]);
  });
});

describe.each(ENDPOINTS.map((endpoint) => [`${endpoint.method} ${endpoint.path}`, endpoint] as const))('%s', (_, endpoint) => {
  it(`a key with only ${endpoint.scope} gets past the scope check`, async () => {
    const result = await call(app, concrete(endpoint), {
      method: endpoint.method,
      key: only(endpoint.scope),
      body: endpoint.method === 'GET' || endpoint.method === 'DELETE' ? undefined : {},
    });
    if (endpoint.method === 'GET' || endpoint.method === 'DELETE') expect(result.status, result.text).toBe(endpoint.status);
    // A write with an empty body is past the scope check when it is refused for its body (400)
    // or its record's state (422), or succeeds.
    else expect([endpoint.status, 400, 422], result.text).toContain(result.status);
  });

  it(`a key with every scope but ${endpoint.scope} gets 403 scope_missing`, async () => {
    const result = await call(app, concrete(endpoint), {
      method: endpoint.method,
      key: without(endpoint.scope),
      body: endpoint.method === 'GET' || endpoint.method === 'DELETE' ? undefined : {},
    });
    expect(result.status, result.text).toBe(ERROR_CODES.scope_missing.status);
    expect(result.json.error).toMatchObject({ code: 'scope_missing', type: ERROR_CODES.scope_missing.type });
    expect(result.json.error.message).toContain(endpoint.scope);
  });
});

describe('the routes are exactly the reference tables', () => {
  const paths = [...new Set(ENDPOINTS.map((endpoint) => endpoint.path))];

  it.each(paths)('%s takes the reference methods; any other is 405 with Allow naming them', async (path) => {
    const methods = ENDPOINTS.filter((endpoint) => endpoint.path === path).map((endpoint) => endpoint.method);
    const url = concrete(ENDPOINTS.find((endpoint) => endpoint.path === path) as ReferenceEndpoint);
    for (const method of ['GET', 'POST', 'PATCH', 'DELETE', 'PUT'].filter((candidate) => !(methods as string[]).includes(candidate))) {
      const result = await call(app, url, {
        method,
        key: without('events:read'),
        body: method === 'GET' || method === 'DELETE' ? undefined : {},
      });
      expect(result.status, `${method} ${path}: ${result.text}`).toBe(ERROR_CODES.method_not_allowed.status);
      expect(result.json.error.code).toBe('method_not_allowed');
      expect(result.headers.get('Allow')?.split(/,\s*/).sort(), `${method} ${path}`).toEqual(expect.arrayContaining([...methods].sort()));
      expect(
        result.headers
          .get('Allow')
          ?.split(/,\s*/)
          .filter((allowed) => !['HEAD', 'OPTIONS'].includes(allowed))
          .sort(),
      ).toEqual([...methods].sort());
    }
  });
});
