// The reference's limits (test/reference/limits.ts): page size 1 to 100, default 25, written in
// digits (SANDBOX.md); 20 metadata pairs on client, site and job create and update; a signature
// 300 seconds old or more rejected.
import { createHmac } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../../src/index.js';
import { call, testApp, type TestApp } from '../helpers.js';
import { ENDPOINTS } from './endpoints.js';
import { METADATA_PAIRS, PAGE_SIZE, SIGNATURE_AGE_SECONDS } from './limits.js';

const LISTS = ENDPOINTS.filter((endpoint) => endpoint.method === 'GET' && !endpoint.path.includes('{'));

let app: TestApp;
beforeAll(() => {
  app = testApp();
});

describe.each(LISTS.map((endpoint) => endpoint.path))('page size of %s', (path) => {
  it(`is ${PAGE_SIZE.default} by default, and ${PAGE_SIZE.min} to ${PAGE_SIZE.max} when asked`, async () => {
    const all = await call(app, `${path}?limit=${PAGE_SIZE.max}`);
    expect(all.status, all.text).toBe(200);
    // Account A holds more than the default page of every list, so each size shows.
    expect((await call(app, path)).json.data).toHaveLength(PAGE_SIZE.default);
    expect((await call(app, `${path}?limit=${PAGE_SIZE.min}`)).json.data).toHaveLength(PAGE_SIZE.min);
    expect(all.json.data.length).toBeGreaterThan(PAGE_SIZE.default);
    expect(all.json.data.length).toBeLessThanOrEqual(PAGE_SIZE.max);
    if (all.json.has_more) expect(all.json.data).toHaveLength(PAGE_SIZE.max);
  });

  it('refuses a size outside the range with 400 naming limit', async () => {
    for (const limit of [PAGE_SIZE.min - 1, PAGE_SIZE.max + 1]) {
      const result = await call(app, `${path}?limit=${limit}`);
      expect(result.status, result.text).toBe(400);
      expect(result.json.error).toMatchObject({ code: 'parameter_invalid', param: 'limit' });
    }
  });
});

describe('limit is written in digits (SANDBOX.md: an integer 1..100, else 400 naming limit)', () => {
  it.each([
    ['1', 1],
    ['100', 100],
    ['7', 7],
    ['0100', 100],
    ['000010', 10],
  ])('limit=%s gives a page of %i', async (limit, size) => {
    const result = await call(testApp(), `/v1/jobs?limit=${limit}`);
    expect(result.status, result.text).toBe(200);
    expect(result.json.data).toHaveLength(size);
  });

  it.each([
    ['0', '"0"'],
    ['101', '"101"'],
    ['abc', '"abc"'],
    ['5x', '"5x"'],
    ['x5', '"x5"'],
    ['%2B5', '"+5"'],
    ['1e2', '"1e2"'],
    ['100.0', '"100.0"'],
    ['-1', '"-1"'],
    ['0000001', '"0000001"'],
    ['', 'an empty string'],
  ])('limit=%s is 400, in the words of the rule', async (limit, received) => {
    const result = await call(testApp(), `/v1/jobs?limit=${limit}`);
    expect(result.status, result.text).toBe(400);
    expect(result.json.error).toMatchObject({
      code: 'parameter_invalid',
      param: 'limit',
      message: `Invalid limit: must be an integer from 1 to 100; received ${received}.`,
    });
  });
});

describe(`metadata holds up to ${METADATA_PAIRS} pairs`, () => {
  const pairs = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`key_${i}`, `value ${i}`]));

  it('on client, site and job create and update', async () => {
    // PATCH merges metadata with the record's own, so the updates go to records without any.
    type Bare = { id: string; client: string; metadata: Record<string, string> };
    const bare = async (path: string): Promise<Bare> =>
      ((await call(app, path)).json.data as Bare[]).find((row) => Object.keys(row.metadata).length === 0) as Bare;
    const client = await bare('/v1/clients?limit=100');
    const site = await bare('/v1/sites?limit=100');
    const job = await bare('/v1/jobs?status=draft&limit=100');
    expect([client, site, job].every(Boolean), 'records without metadata to update').toBe(true);
    const address = { line1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701' };
    const writes: [string, string, Record<string, unknown>][] = [
      ['POST', '/v1/clients', { name: 'Meta Labs', kind: 'laboratory' }],
      ['PATCH', `/v1/clients/${client.id}`, {}],
      ['POST', '/v1/sites', { client: site.client, name: 'Dock', address }],
      ['PATCH', `/v1/sites/${site.id}`, {}],
      ['POST', '/v1/jobs', { type: 'ci_pickup', client: site.client, site: site.id }],
      ['PATCH', `/v1/jobs/${job.id}`, {}],
    ];
    for (const [method, path, body] of writes) {
      const most = await call(app, path, { method, body: { ...body, metadata: pairs(METADATA_PAIRS) } });
      expect(most.status, `${method} ${path}: ${most.text}`).toBe(method === 'POST' ? 201 : 200);
      expect(Object.keys(most.json.metadata).length).toBeGreaterThanOrEqual(METADATA_PAIRS);
      const over = await call(app, path, { method, body: { ...body, metadata: pairs(METADATA_PAIRS + 1) } });
      expect(over.status, `${method} ${path}: ${over.text}`).toBe(400);
      expect(over.json.error).toMatchObject({ code: 'parameter_invalid', param: 'metadata' });
    }
  });
});

describe(`a signature ${SIGNATURE_AGE_SECONDS} seconds old or more is rejected`, () => {
  const secret = 'whsec_reference_limits_0123456789';
  const body = '{"id":"evt_1","object":"event"}';
  const now = 1_780_000_000;
  const header = (t: number) => `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;

  it.each([
    [0, true],
    [SIGNATURE_AGE_SECONDS - 1, true],
    [SIGNATURE_AGE_SECONDS, false],
    [SIGNATURE_AGE_SECONDS + 1, false],
    [-1, false],
  ])('%i seconds old: accepted %s', (age, accepted) => {
    expect(verifySignature(body, header(now - age), secret, { now })).toBe(accepted);
  });
});
