// Responses carry exactly the reference's fields (SANDBOX.md, "Sample data": "nothing else,
// ever"): every record of every list and a GET of each, in both accounts, and each write's answer,
// compared with the field tables transcribed in test/reference/resources.ts.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, OTHER_KEY, PUBLIC_KEY, testApp, type TestApp } from '../helpers.js';
import { COLLECTION_OF, DELETED_FIELDS, FIELDS, ID_PREFIXES, LIST_FIELDS, NESTED_FIELDS, type ObjectName } from './resources.js';
import { everyRecord, keysOf, type Row, sorted } from './walk.js';

const ACCOUNTS = [
  ['A', PUBLIC_KEY],
  ['B', OTHER_KEY],
] as const;
const OBJECTS = Object.keys(FIELDS) as ObjectName[];
const FACILITY = (JSON.parse(readFileSync(new URL('../../fixtures/facilities.json', import.meta.url), 'utf8')) as { epa_id: string }[])[0]
  ?.epa_id as string;

let app: TestApp;
const records = new Map<string, Row[]>();

/** Every field of one record, nested objects included; a message names the record and the place. */
function expectReferenceFields(object: ObjectName, record: Row, where: string): void {
  const at = `${where} ${record.id}`;
  expect(keysOf(record), `${at}: fields of ${object}`).toEqual(sorted(FIELDS[object]));
  expect(record.object, at).toBe(object);
  expect(record.id.startsWith(ID_PREFIXES[object]), `${at}: prefix ${ID_PREFIXES[object]}`).toBe(true);
  const nested = (path: keyof typeof NESTED_FIELDS, value: unknown) =>
    expect(keysOf(value), `${at}: fields of ${path}`).toEqual(sorted(NESTED_FIELDS[path]));
  if (object === 'site') nested('site.address', record.address);
  if (object === 'job') {
    if (record.window !== null) nested('job.window', record.window);
    for (const member of record.crew as unknown[]) nested('job.crew[]', member);
  }
  if (object === 'manifest') {
    nested('manifest.generator', record.generator);
    nested('manifest.designated_facility', record.designated_facility);
    for (const line of record.lines as unknown[]) nested('manifest.lines[]', line);
  }
  if (object === 'event') {
    nested('event.data', record.data);
    const inner = (record.data as { object: Row }).object;
    expectReferenceFields(inner.object as ObjectName, inner, `${at} data.object`);
  }
}

beforeAll(async () => {
  app = testApp();
  for (const [account, key] of ACCOUNTS) {
    for (const object of OBJECTS) records.set(`${account} ${object}`, await everyRecord(app, COLLECTION_OF[object], key));
  }
});

describe.each(OBJECTS)('%s', (object) => {
  it.each(ACCOUNTS)('account %s: every record of the list has exactly the reference fields', (account) => {
    const rows = records.get(`${account} ${object}`) ?? [];
    // The webhook endpoints list may be empty in an account; every other list has records.
    if (object !== 'webhook_endpoint') expect(rows.length, `account ${account} lists ${object}`).toBeGreaterThan(0);
    for (const row of rows) expectReferenceFields(object, row, `list ${account}`);
  });

  it.each(ACCOUNTS)('account %s: a GET by ID answers the reference fields, the same as the list', async (account, key) => {
    const rows = records.get(`${account} ${object}`) ?? [];
    for (const row of [rows[0], rows[rows.length - 1]].filter((row): row is Row => row !== undefined)) {
      const single = await call(app, `/v1/${COLLECTION_OF[object]}/${row.id}`, { key });
      if (object === 'webhook_endpoint') {
        // No GET by ID for webhook endpoints in the reference.
        expect(single.status).toBe(405);
        continue;
      }
      expect(single.status, single.text).toBe(200);
      expectReferenceFields(object, single.json, `GET ${account}`);
      expect(single.json).toEqual(row);
    }
  });
});

describe('the list envelope and write answers', () => {
  it('a list page has exactly the envelope fields', async () => {
    for (const object of OBJECTS) {
      const page = await call(app, `/v1/${COLLECTION_OF[object]}?limit=1`);
      expect(keysOf(page.json), object).toEqual(sorted(LIST_FIELDS));
      expect(page.json.object).toBe('list');
    }
  });

  it('each create and update answers exactly the reference fields', async () => {
    const clientId = (records.get('A client') as Row[])[0]?.id;
    const site = (records.get('A site') as Row[]).find((row) => row.client === clientId) ?? (records.get('A site') as Row[])[0];
    const jobs = records.get('A job') as Row[];
    const manifestJob = jobs.find((job) => job.status === 'in_progress') as Row;
    const draftJob = jobs.find((job) => job.status === 'draft') as Row;
    const draftProfile = (records.get('A waste_profile') as Row[]).find((row) => row.status === 'draft') as Row;
    const openContainer = (records.get('A container') as Row[]).find((row) => row.status === 'open') as Row;
    const metadata = { ref: 'x' };
    const writes: [ObjectName, string, string, unknown][] = [
      ['client', 'POST', '/v1/clients', { name: 'Field Labs', kind: 'laboratory', metadata }],
      ['client', 'PATCH', `/v1/clients/${clientId}`, { name: 'Renamed' }],
      [
        'site',
        'POST',
        '/v1/sites',
        { client: site?.client, name: 'Dock', address: { line1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701' } },
      ],
      ['site', 'PATCH', `/v1/sites/${site?.id}`, { access_notes: 'Gate 2' }],
      ['waste_profile', 'POST', '/v1/waste_profiles', { client: clientId, name: 'Acetone', waste_codes: ['D001'] }],
      ['waste_profile', 'PATCH', `/v1/waste_profiles/${draftProfile.id}`, { name: 'Renamed' }],
      ['job', 'POST', '/v1/jobs', { type: 'ci_pickup', client: site?.client, site: site?.id }],
      [
        'job',
        'POST',
        '/v1/jobs',
        { type: 'lab_pack', client: site?.client, site: site?.id, scheduled_for: '2026-09-01', window: { start: '08:00', end: '12:00' } },
      ],
      ['job', 'PATCH', `/v1/jobs/${draftJob.id}`, { metadata }],
      ['job', 'POST', `/v1/jobs/${draftJob.id}/cancel`, { reason: 'Rain' }],
      ['container', 'PATCH', `/v1/containers/${openContainer.id}`, { weight_lb: 12 }],
      ['manifest', 'POST', '/v1/manifests', { job: manifestJob.id, designated_facility: FACILITY }],
      ['webhook_endpoint', 'POST', '/v1/webhook_endpoints', { url: 'https://hooks.example.com/x', events: ['*'] }],
    ];
    for (const [object, method, path, body] of writes) {
      const result = await call(app, path, { method, body });
      expect(result.status, `${method} ${path}: ${result.text}`).toBe(method === 'POST' && !path.endsWith('/cancel') ? 201 : 200);
      expectReferenceFields(object, result.json, `${method} ${path}`);
    }
  });

  it('deleting a webhook endpoint answers id, object and deleted only', async () => {
    const endpoint = (records.get('A webhook_endpoint') as Row[])[0];
    expect(endpoint, 'account A has a webhook endpoint to delete').toBeDefined();
    const result = await call(app, `/v1/webhook_endpoints/${endpoint?.id}`, { method: 'DELETE' });
    expect(result.status, result.text).toBe(200);
    expect(keysOf(result.json)).toEqual(sorted(DELETED_FIELDS));
    expect(result.json).toEqual({ id: endpoint?.id, object: 'webhook_endpoint', deleted: true });
  });
});
