// Issue #8: IDs as production reads them (by prefix alone) and no limit the reference does not
// set. The ID fields and filters come from the sandbox's OpenAPI document, so a new reference
// field or filter is held to the same rule as soon as it exists.
import { beforeAll, describe, expect, it } from 'vitest';
import { WASTE_CODES } from '../src/data/waste-codes.js';
import { ApiDocument, idPrefix } from './document.js';
import { call, testApp } from './helpers.js';

const app = testApp();

let doc: ApiDocument;
beforeAll(async () => {
  doc = await ApiDocument.load(app);
});

/** Every (write, ID field) pair of the document, with the write's working example body. */
function bodyReferences() {
  return doc.writes().flatMap((write) =>
    Object.entries(doc.resolve(write.schema).properties ?? {}).flatMap(([field, schema]) => {
      const prefix = idPrefix(schema);
      return prefix === undefined ? [] : [{ ...write, field, prefix }];
    }),
  );
}

/** IDs with the right prefix that no account holds: other lengths, other alphabets, the prefix alone. */
const ODD_IDS = (prefix: string) => [`${prefix}doesnotexist0000`, prefix, `${prefix}x`, `${prefix}${'Z'.repeat(300)}`, `${prefix}ü-€/..`];

describe('a body reference is an ID by its prefix alone', () => {
  it('every ID field of every write is found: client, site, job', () => {
    expect(bodyReferences().map(({ operationId, field }) => `${operationId}.${field}`)).toEqual([
      'createSite.client',
      'createWasteProfile.client',
      'createJob.client',
      'createJob.site',
      'createManifest.job',
    ]);
  });

  it('an ID of any length or alphabet that is not in the account is 404 resource_missing naming the field', async () => {
    for (const reference of bodyReferences()) {
      for (const id of ODD_IDS(reference.prefix)) {
        const result = await call(app, reference.path, { method: reference.method, body: { ...reference.body, [reference.field]: id } });
        const context = `${reference.operationId} ${reference.field}=${id}: ${result.text}`;
        expect(result.status, context).toBe(404);
        expect(result.json.error, context).toMatchObject({ code: 'resource_missing', param: reference.field });
        expect(result.json.error.message, context).toContain(JSON.stringify(id.slice(0, 30)).slice(0, -1));
      }
    }
  });

  it('a value with another prefix is 400 parameter_invalid, the message naming the prefix expected', async () => {
    for (const reference of bodyReferences()) {
      const result = await call(app, reference.path, {
        method: reference.method,
        body: { ...reference.body, [reference.field]: 'inv_doesnotexist0000' },
      });
      expect(result.status, result.text).toBe(400);
      expect(result.json.error).toMatchObject({ code: 'parameter_invalid', param: reference.field });
      expect(result.json.error.message).toContain(`begins with ${reference.prefix}`);
    }
  });

  it('with an Idempotency-Key the 404 is stored and replayed, as production would', async () => {
    for (const reference of bodyReferences()) {
      const options = {
        method: reference.method,
        body: { ...reference.body, [reference.field]: `${reference.prefix}doesnotexist0000` },
        headers: { 'Idempotency-Key': `missing-${reference.operationId}-${reference.field}` },
      };
      const first = await call(app, reference.path, options);
      const replay = await call(app, reference.path, options);
      expect(first.status).toBe(404);
      expect(first.headers.get('Idempotent-Replayed')).toBeNull();
      expect(replay.status).toBe(404);
      expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
      expect(replay.text).toBe(first.text);
    }
  });

  it('the examples of the issue answer 404 naming the field', async () => {
    const site = (await call(app, '/v1/sites?limit=1')).json.data[0];
    const sent = [
      [
        '/v1/sites',
        {
          client: 'cli_doesnotexist0000',
          name: 'Depot',
          address: { line1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701' },
        },
        'client',
      ],
      ['/v1/jobs', { type: 'hhw_event', client: 'cli_doesnotexist0000', site: site.id }, 'client'],
      ['/v1/jobs', { type: 'hhw_event', client: site.client, site: 'site_doesnotexist0000' }, 'site'],
      ['/v1/waste_profiles', { client: 'cli_doesnotexist0000', name: 'Paint', waste_codes: ['D001'] }, 'client'],
      ['/v1/manifests', { job: 'job_doesnotexist0000', designated_facility: 'TXD009407121' }, 'job'],
    ] as const;
    for (const [path, body, param] of sent) {
      const result = await call(app, path, { method: 'POST', body });
      expect(result.json.error, `${path} ${result.text}`).toMatchObject({ code: 'resource_missing', param });
    }
  });
});

describe('a filter on an ID not in the account matches nothing', () => {
  function idFilters() {
    return doc.lists().flatMap((list) =>
      list.parameters.flatMap((parameter) => {
        const prefix = parameter.name === 'starting_after' ? undefined : idPrefix(parameter.schema);
        return prefix === undefined ? [] : [{ path: list.path, name: parameter.name, prefix }];
      }),
    );
  }

  it('every ID filter is found', () => {
    expect(idFilters().map(({ path, name }) => `${path}?${name}`)).toEqual([
      '/v1/sites?client',
      '/v1/waste_profiles?client',
      '/v1/jobs?client',
      '/v1/containers?job',
      '/v1/manifests?job',
      '/v1/invoices?client',
    ]);
  });

  it('answers an empty list for an ID of any length or alphabet; another prefix is 400 naming the prefix', async () => {
    for (const filter of idFilters()) {
      for (const id of ODD_IDS(filter.prefix)) {
        const result = await call(app, `${filter.path}?${new URLSearchParams({ [filter.name]: id })}`);
        expect(result.status, `${filter.path}?${filter.name}=${id}: ${result.text}`).toBe(200);
        expect(result.json).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
      }
      const wrong = await call(app, `${filter.path}?${filter.name}=evt_doesnotexist0000`);
      expect(wrong.json.error).toMatchObject({ code: 'parameter_invalid', param: filter.name });
      expect(wrong.json.error.message).toContain(`begins with ${filter.prefix}`);
    }
  });

  it('a path ID of any length with the prefix is 404 param id', async () => {
    for (const id of ['job_', 'job_x', `job_${'9'.repeat(200)}`]) {
      expect((await call(app, `/v1/jobs/${id}`)).json.error).toMatchObject({ code: 'resource_missing', param: 'id' });
    }
  });
});

describe('no limit the reference does not set', () => {
  const KNOWN_CODES = [...WASTE_CODES.keys()];

  it('a waste profile takes 60 codes (and more), on create and on update', async () => {
    const client = (await call(app, '/v1/clients?limit=1')).json.data[0];
    const codes = KNOWN_CODES.slice(0, 60);
    const created = await call(app, '/v1/waste_profiles', {
      method: 'POST',
      body: { client: client.id, name: 'Lab pack', waste_codes: codes },
    });
    expect(created.status, created.text.slice(0, 300)).toBe(201);
    expect(created.json.waste_codes).toEqual(codes);
    const draft = (await call(app, '/v1/waste_profiles?status=draft&limit=1')).json.data[0];
    const many = KNOWN_CODES.slice(0, 400);
    const updated = await call(app, `/v1/waste_profiles/${draft.id}`, { method: 'PATCH', body: { waste_codes: many } });
    expect(updated.status, updated.text.slice(0, 300)).toBe(200);
    expect(updated.json.waste_codes).toHaveLength(400);
  });

  it('long text is taken whole: names, address lines, notes, descriptions, a cancel reason, a webhook URL', async () => {
    const long = 'Ä'.repeat(5000);
    const client = (await call(app, '/v1/clients?limit=1')).json.data[0];
    const site = await call(app, '/v1/sites', {
      method: 'POST',
      body: {
        client: client.id,
        name: long,
        address: { line1: long, line2: long, city: long, state: 'TX', postal_code: '78701' },
        access_notes: long,
      },
    });
    expect(site.status, site.text.slice(0, 300)).toBe(201);
    // Every long field compared whole: a cut at any length fails here.
    expect(site.json).toMatchObject({
      name: long,
      address: { line1: long, line2: long, city: long, state: 'TX', postal_code: '78701' },
      access_notes: long,
    });
    const profile = await call(app, '/v1/waste_profiles', {
      method: 'POST',
      body: { client: client.id, name: long, waste_codes: ['D001'], dot_description: long },
    });
    expect(profile.status).toBe(201);
    expect(profile.json).toMatchObject({ name: long, dot_description: long });
    const renamed = await call(app, `/v1/clients/${client.id}`, { method: 'PATCH', body: { name: long } });
    expect(renamed.json.name).toBe(long);
    const named = await call(app, '/v1/clients', { method: 'POST', body: { name: long, kind: 'laboratory' } });
    expect(named.json.name).toBe(long);
    const job = (await call(app, '/v1/jobs?status=scheduled&limit=1')).json.data[0];
    expect((await call(app, `/v1/jobs/${job.id}/cancel`, { method: 'POST', body: { reason: long } })).status).toBe(200);
    const url = `https://example.com/${'a'.repeat(5000)}`;
    const endpoint = await call(app, '/v1/webhook_endpoints', { method: 'POST', body: { url, events: ['*'] } });
    expect(endpoint.status, endpoint.text.slice(0, 300)).toBe(201);
    expect(endpoint.json.url).toBe(url);
  });

  it('a weight is any whole number JSON carries exactly; past 2^53 it is refused with the range', async () => {
    const container = (await call(app, '/v1/containers?status=open&limit=1')).json.data[0];
    const heavy = await call(app, `/v1/containers/${container.id}`, { method: 'PATCH', body: { weight_lb: Number.MAX_SAFE_INTEGER } });
    expect(heavy.status, heavy.text).toBe(200);
    const past = await call(app, `/v1/containers/${container.id}`, { method: 'PATCH', body: '{"weight_lb":9007199254740993}' });
    expect(past.json.error).toMatchObject({ code: 'parameter_invalid', param: 'weight_lb' });
    expect(past.json.error.message).toContain(String(Number.MAX_SAFE_INTEGER));
  });

  it('the limits kept are the ones the README lists: 20 metadata pairs, 40-character keys, 500-character values', async () => {
    const client = (await call(app, '/v1/clients?limit=1')).json.data[0];
    const pairs = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v']));
    const result = await call(app, `/v1/clients/${client.id}`, { method: 'PATCH', body: { metadata: pairs } });
    expect(result.json.error).toMatchObject({
      param: 'metadata',
      message: 'Invalid metadata: must have at most 20 key-value pairs; received 21 pairs.',
    });
  });
});
