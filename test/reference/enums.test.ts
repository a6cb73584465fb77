// Every value of every enum of the reference appears in account A's sample data, and no other
// value appears in either account (SANDBOX.md, "Sample data"); the twelve event types are the
// values of the events list, of its type filter and of a webhook endpoint's events.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, OTHER_KEY, PUBLIC_KEY, testApp, type TestApp } from '../helpers.js';
import { COLLECTION_OF, ENUMS, EVENT_TYPES } from './resources.js';
import { everyRecord } from './walk.js';

let app: TestApp;

beforeAll(() => {
  app = testApp();
});

describe.each(ENUMS.map((entry) => [`${entry.object}.${entry.field}`, entry] as const))('%s', (_, entry) => {
  it('account A holds every value of the reference, and only those', async () => {
    const rows = await everyRecord(app, COLLECTION_OF[entry.object], PUBLIC_KEY);
    const seen = new Set(rows.map((row) => row[entry.field]));
    const expected = entry.nullable ? [...entry.values, null] : [...entry.values];
    expect([...seen].sort(), `values of ${entry.object}.${entry.field} in account A`).toEqual(expected.sort());
  });

  it('account B holds no other value', async () => {
    const rows = await everyRecord(app, COLLECTION_OF[entry.object], OTHER_KEY);
    expect(rows.length).toBeGreaterThan(0);
    const allowed: unknown[] = entry.nullable ? [...entry.values, null] : [...entry.values];
    for (const row of rows) expect(allowed, `${row.id}.${entry.field}`).toContain(row[entry.field]);
  });
});

describe('the twelve event types', () => {
  it('the reference lists twelve', () => {
    expect(new Set(EVENT_TYPES).size).toBe(12);
  });

  it.each(EVENT_TYPES)('GET /v1/events?type=%s lists events of that type only', async (type) => {
    const page = await call(app, `/v1/events?type=${type}&limit=100`);
    expect(page.status, page.text).toBe(200);
    expect(page.json.data.length, `account A has ${type} events`).toBeGreaterThan(0);
    for (const event of page.json.data) expect(event.type).toBe(type);
  });

  it('a type that is not one of the twelve is refused by the filter and by a webhook endpoint', async () => {
    for (const type of ['job.deleted', 'Job.created', 'job', '*']) {
      const filtered = await call(app, `/v1/events?type=${encodeURIComponent(type)}`);
      expect(filtered.status, `${type}: ${filtered.text}`).toBe(400);
      expect(filtered.json.error).toMatchObject({ code: 'parameter_invalid', param: 'type' });
    }
    const endpoint = await call(app, '/v1/webhook_endpoints', {
      method: 'POST',
      body: { url: 'https://hooks.example.com/x', events: ['job.created', 'job.deleted'] },
    });
    expect(endpoint.status, endpoint.text).toBe(400);
    expect(endpoint.json.error).toMatchObject({ code: 'parameter_invalid', param: 'events[1]' });
  });

  it('a webhook endpoint takes all twelve by name', async () => {
    const endpoint = await call(app, '/v1/webhook_endpoints', {
      method: 'POST',
      body: { url: 'https://hooks.example.com/x', events: [...EVENT_TYPES] },
    });
    expect(endpoint.status, endpoint.text).toBe(201);
    expect(endpoint.json.events).toEqual([...EVENT_TYPES]);
  });
});

describe('enum filters take exactly the reference values', () => {
  const FILTERS = [
    ['/v1/clients', 'kind', 'client.kind'],
    ['/v1/waste_profiles', 'status', 'waste_profile.status'],
    ['/v1/jobs', 'type', 'job.type'],
    ['/v1/jobs', 'status', 'job.status'],
    ['/v1/containers', 'status', 'container.status'],
    ['/v1/containers', 'storage_status', 'container.storage_status'],
    ['/v1/manifests', 'status', 'manifest.status'],
    ['/v1/invoices', 'status', 'invoice.status'],
  ] as const;

  it.each(FILTERS)('%s?%s=', async (path, filter, name) => {
    const entry = ENUMS.find((candidate) => `${candidate.object}.${candidate.field}` === name);
    expect(entry, name).toBeDefined();
    for (const value of entry?.values ?? []) {
      const page = await call(app, `${path}?${filter}=${value}&limit=100`);
      expect(page.status, `${filter}=${value}: ${page.text}`).toBe(200);
      expect(page.json.data.length, `${filter}=${value} matches records in account A`).toBeGreaterThan(0);
      for (const row of page.json.data) expect(row[filter]).toBe(value);
    }
    const refused = await call(app, `${path}?${filter}=${entry?.values[0]}_x`);
    expect(refused.status, refused.text).toBe(400);
    expect(refused.json.error).toMatchObject({ code: 'parameter_invalid', param: filter });
  });
});
