// Every route of the route table × every kind of caller (STYLE.md, habit 8): a new endpoint is
// covered by adding it to src/resources/index.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import { FACILITIES } from '../src/data/generate/fixtures.js';
import type { Endpoint } from '../src/http/endpoint.js';
import { ENDPOINTS } from '../src/resources/index.js';
import { COLLECTIONS, call, OTHER_KEY, PUBLIC_KEY, REVOKED_KEY, testApp, type TestApp } from './helpers.js';
import { ENDPOINTS as REFERENCE_ENDPOINTS, SCOPES } from './reference/endpoints.js';

/** A key table with one key per scope missing and one per scope alone, beside the defaults. */
const keyTable = [
  { key: PUBLIC_KEY, account: 'A', scopes: '*' },
  { key: OTHER_KEY, account: 'B', scopes: '*' },
  { key: REVOKED_KEY, account: 'A', scopes: '*', revoked: true },
  ...SCOPES.flatMap((scope) => {
    const name = scope.replace(':', '_');
    return [
      { key: `svc_test_without_${name}`, account: 'A', scopes: SCOPES.filter((s) => s !== scope) },
      { key: `svc_test_only_${name}`, account: 'A', scopes: [scope] },
    ];
  }),
];

let app: TestApp;
const sampleIds: Record<string, string> = {};
const bodies: Record<string, unknown> = {};

function concretePath(endpoint: Endpoint): string {
  return endpoint.path.replace('{id}', sampleIds[endpoint.pathId ?? ''] ?? 'missing');
}

function send(endpoint: Endpoint, key: string | null) {
  return call(app, concretePath(endpoint), { method: endpoint.method, key, body: bodies[endpoint.operationId] });
}

beforeAll(async () => {
  app = testApp({ SANDBOX_KEYS: JSON.stringify(keyTable) });
  for (const [object, collection] of Object.entries(COLLECTIONS)) {
    const page = await call(app, `/v1/${collection}?limit=1`);
    sampleIds[object] = page.json.data[0].id;
  }
  const site = (await call(app, `/v1/sites/${sampleIds.site}`)).json;
  const job = (await call(app, '/v1/jobs?status=in_progress&limit=1')).json.data[0];
  // Valid bodies for the writes, so the other account's key meets A's records only by reference.
  Object.assign(bodies, {
    createClient: { name: 'Matrix Labs', kind: 'laboratory' },
    createSite: { client: site.client, name: 'Dock 4', address: { line1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701' } },
    createWasteProfile: { client: site.client, name: 'Spent acetone', waste_codes: ['D001', 'U002'] },
    createJob: { type: 'ci_pickup', client: site.client, site: site.id },
    createManifest: { job: job.id, designated_facility: FACILITIES[0]?.epa_id },
    createWebhookEndpoint: { url: 'https://hooks.example.com/waste', events: ['*'] },
    cancelJob: {},
    updateClient: { name: 'Renamed' },
    updateSite: { name: 'Renamed' },
    updateWasteProfile: { name: 'Renamed' },
    updateJob: {},
    updateContainer: {},
  });
});

describe('the route table the matrix walks', () => {
  it("is the reference's endpoint tables: every method, path and scope, nothing else", () => {
    const row = (endpoint: { method: string; path: string; scope: string }) => `${endpoint.method} ${endpoint.path} ${endpoint.scope}`;
    expect(ENDPOINTS.map(row).sort()).toEqual(REFERENCE_ENDPOINTS.map(row).sort());
  });
});

describe.each(ENDPOINTS.map((endpoint) => [`${endpoint.method} ${endpoint.path}`, endpoint] as const))('%s', (_, endpoint) => {
  it('without a key answers 401 api_key_missing', async () => {
    const result = await send(endpoint, null);
    expect(result.status, result.text).toBe(401);
    expect(result.json.error).toMatchObject({ type: 'authentication_error', code: 'api_key_missing' });
  });

  it('with an empty bearer answers 401 api_key_missing', async () => {
    const result = await call(app, concretePath(endpoint), { method: endpoint.method, key: null, headers: { Authorization: 'Bearer ' } });
    expect(result.status, result.text).toBe(401);
    expect(result.json.error.code).toBe('api_key_missing');
  });

  it('with an unknown key answers 401 api_key_invalid', async () => {
    const result = await send(endpoint, 'svc_test_not_a_key');
    expect(result.status, result.text).toBe(401);
    expect(result.json.error).toMatchObject({ type: 'authentication_error', code: 'api_key_invalid' });
  });

  it('with a revoked key answers 401 api_key_invalid', async () => {
    const result = await send(endpoint, REVOKED_KEY);
    expect(result.status, result.text).toBe(401);
    expect(result.json.error.code).toBe('api_key_invalid');
    expect(result.json.error.message).toMatch(/revoked/);
  });

  it('with a live key answers 401 api_key_invalid saying live keys do not work here', async () => {
    const result = await send(endpoint, 'svc_live_0123456789abcdef');
    expect(result.status, result.text).toBe(401);
    expect(result.json.error.code).toBe('api_key_invalid');
    expect(result.json.error.message).toMatch(/live keys/i);
  });

  it(`without ${endpoint.scope} answers 403 scope_missing; with only that scope it passes the check`, async () => {
    const name = endpoint.scope.replace(':', '_');
    const refused = await send(endpoint, `svc_test_without_${name}`);
    expect(refused.status, refused.text).toBe(403);
    expect(refused.json.error).toMatchObject({ type: 'permission_error', code: 'scope_missing' });
    expect(refused.json.error.message).toContain(endpoint.scope);
    const allowed = await send(endpoint, `svc_test_only_${name}`);
    expect([401, 403], allowed.text).not.toContain(allowed.status);
  });

  it("with the other account's key never reaches account A's records", async () => {
    const result = await send(endpoint, OTHER_KEY);
    if (endpoint.path.includes('{id}')) {
      expect(result.status, result.text).toBe(404);
      expect(result.json.error).toMatchObject({ code: 'resource_missing', param: 'id' });
    } else if (endpoint.method === 'GET') {
      expect(result.status, result.text).toBe(200);
      const ids = new Set(Object.values(sampleIds));
      expect(result.json.data.length).toBeGreaterThan(0);
      for (const record of result.json.data) expect(ids.has(record.id)).toBe(false);
    } else if (endpoint.operationId === 'createWebhookEndpoint' || endpoint.operationId === 'createClient') {
      // Nothing of account A is named in these bodies: B creates its own record.
      expect(result.status, result.text).toBe(201);
    } else {
      // Creates name A's client or job: for B they do not exist.
      expect(result.status, result.text).toBe(404);
      expect(result.json.error.code).toBe('resource_missing');
    }
  });

  it('with the public key is not refused', async () => {
    const result = await send(endpoint, PUBLIC_KEY);
    expect([401, 403], result.text).not.toContain(result.status);
  });
});

it('covers every route of the reference', () => {
  expect(ENDPOINTS.map((endpoint) => `${endpoint.method} ${endpoint.path}`).sort()).toEqual(
    [
      'GET /v1/clients',
      'POST /v1/clients',
      'GET /v1/clients/{id}',
      'PATCH /v1/clients/{id}',
      'GET /v1/sites',
      'POST /v1/sites',
      'GET /v1/sites/{id}',
      'PATCH /v1/sites/{id}',
      'GET /v1/waste_profiles',
      'POST /v1/waste_profiles',
      'GET /v1/waste_profiles/{id}',
      'PATCH /v1/waste_profiles/{id}',
      'GET /v1/jobs',
      'POST /v1/jobs',
      'GET /v1/jobs/{id}',
      'PATCH /v1/jobs/{id}',
      'POST /v1/jobs/{id}/cancel',
      'GET /v1/containers',
      'GET /v1/containers/{id}',
      'PATCH /v1/containers/{id}',
      'GET /v1/manifests',
      'POST /v1/manifests',
      'GET /v1/manifests/{id}',
      'GET /v1/invoices',
      'GET /v1/invoices/{id}',
      'GET /v1/webhook_endpoints',
      'POST /v1/webhook_endpoints',
      'DELETE /v1/webhook_endpoints/{id}',
      'GET /v1/events',
      'GET /v1/events/{id}',
    ].sort(),
  );
});
