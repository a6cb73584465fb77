// POST /v1/sites and PATCH /v1/sites/{id} through HTTP (reference, "Sites"; SANDBOX.md).
import { describe, expect, it } from 'vitest';
import type { Client } from '../../src/resources/clients/schema.js';
import { Site } from '../../src/resources/sites/schema.js';
import {
  expectError,
  expectNothingKept,
  expectStatus,
  findSample,
  invalid,
  keyWithout,
  metadataCases,
  missing,
  notFound,
  NOW_TIMESTAMP,
  OTHER_KEY,
  scopeMissing,
  send,
  unknownId,
  writesApp,
} from './helpers.js';

const app = writesApp();
const create = (body: unknown, key?: string) => send(app, 'POST', '/v1/sites', { body, ...(key ? { key } : {}) });
const patch = (id: string, body: unknown, key?: string) => send(app, 'PATCH', `/v1/sites/${id}`, { body, ...(key ? { key } : {}) });

const sampleClient = () => findSample<Client>(app, '/v1/clients');
const sampleSite = () => findSample<Site>(app, '/v1/sites');
const siteWithMetadata = () =>
  findSample<Site>(app, '/v1/sites', (site) => Object.keys(site.metadata).length > 0 && Object.keys(site.metadata).length <= 18);

const ADDRESS = { line1: '4400 Navigation Blvd', city: 'Houston', state: 'TX', postal_code: '77011' };

async function validBody(): Promise<Record<string, unknown>> {
  return { client: (await sampleClient()).id, name: 'North Yard', address: { ...ADDRESS } };
}

describe('POST /v1/sites', () => {
  it('creates a site with the defaults: line2 null, epa_id null, access_notes "", metadata {}', async () => {
    const body = await validBody();
    const result = await create(body);
    expectStatus(result, 201);
    expect(result.json).toEqual({
      id: expect.stringMatching(/^site_[0-9A-Za-z]{14}$/),
      object: 'site',
      client: body.client,
      name: 'North Yard',
      address: { ...ADDRESS, line2: null },
      epa_id: null,
      access_notes: '',
      metadata: {},
      created_at: NOW_TIMESTAMP,
    });
    Site().parse(result.json);
  });

  it('returns every field sent', async () => {
    const body = {
      ...(await validBody()),
      address: { ...ADDRESS, line2: 'Dock 4', postal_code: '77011-1234' },
      access_notes: 'Gate code 4411; dock open 7-15',
      metadata: { yard: 'north' },
    };
    const result = await create(body);
    expectStatus(result, 201);
    expect(result.json).toMatchObject({ ...body, epa_id: null, created_at: NOW_TIMESTAMP });
    Site().parse(result.json);
  });

  it.each(['client', 'name', 'address'])('a missing %s is 400 parameter_missing naming it', async (field) => {
    const body = await validBody();
    delete body[field];
    expectError(await create(body), missing(field));
  });

  it.each(['line1', 'city', 'state', 'postal_code'])('a missing address.%s is 400 naming the nested field', async (field) => {
    const body = await validBody();
    const address: Record<string, unknown> = { ...ADDRESS };
    delete address[field];
    expectError(await create({ ...body, address }), missing(`address.${field}`));
  });

  it.each([
    ['client', 42],
    ['client', 'site_00000000000000'],
    ['name', ''],
    ['name', ['North']],
    ['address', 'Houston'],
    ['address', null],
    ['access_notes', 3],
    ['access_notes', null],
  ])('%s = %j is 400 parameter_invalid', async (field, value) => {
    expectError(await create({ ...(await validBody()), [field]: value }), invalid(field));
  });

  it.each([
    ['state', 'XX'],
    ['state', 'tx'],
    ['state', 48],
    ['postal_code', '7701'],
    ['postal_code', 'ABCDE'],
    ['city', ''],
    ['line2', 5],
  ])('address.%s = %j is 400 naming the nested field', async (field, value) => {
    expectError(await create({ ...(await validBody()), address: { ...ADDRESS, [field]: value } }), invalid(`address.${field}`));
  });

  it('an unknown field inside address is 400 naming its path', async () => {
    expectError(await create({ ...(await validBody()), address: { ...ADDRESS, country: 'US' } }), invalid('address.country'));
  });

  it('epa_id is not taken on create (SANDBOX.md): 400 naming it', async () => {
    expectError(await create({ ...(await validBody()), epa_id: 'TXD008123168' }), invalid('epa_id'));
  });

  it('a client that does not exist, or of the other account, is 404 param client', async () => {
    expectError(await create({ ...(await validBody()), client: unknownId('cli') }), notFound('client'));
    const other = await findSample<Client>(app, '/v1/clients', () => true, OTHER_KEY);
    expectError(await create({ ...(await validBody()), client: other.id }), notFound('client'));
  });

  it('validation comes before the lookup: a bad body naming a missing client is 400', async () => {
    expectError(await create({ client: unknownId('cli'), name: 'x', address: { ...ADDRESS, state: 'XX' } }), invalid('address.state'));
  });

  it('a key without sites:write is 403 scope_missing, before validation', async () => {
    const key = keyWithout('sites:write');
    expectError(await create(await validBody(), key), scopeMissing);
    expectError(await create({}, key), scopeMissing);
  });

  it('keeps nothing: the lists read as before and the new ID is 404', async () => {
    const body = await validBody();
    const result = await expectNothingKept(app, ['/v1/sites', `/v1/sites?client=${body.client}`], () => create(body));
    expectStatus(result, 201);
    expectError(await send(app, 'GET', `/v1/sites/${result.json.id}`), notFound('id'));
  });

  describe('metadata', () => {
    metadataCases({
      app,
      method: 'POST',
      path: async () => '/v1/sites',
      body: async (metadata) => ({ ...(await validBody()), metadata }),
      current: async () => ({}),
      success: 201,
    });
  });
});

describe('PATCH /v1/sites/{id}', () => {
  it('returns the sample site with only the change applied (a site has no updated_at)', async () => {
    const site = await sampleSite();
    const result = await patch(site.id, { name: 'South Yard', access_notes: 'Call ahead' });
    expectStatus(result, 200);
    expect(result.json).toEqual({ ...site, name: 'South Yard', access_notes: 'Call ahead' });
    Site().parse(result.json);
  });

  it('access_notes may be emptied', async () => {
    const site = await sampleSite();
    const result = await patch(site.id, { access_notes: '' });
    expectStatus(result, 200);
    expect(result.json).toEqual({ ...site, access_notes: '' });
  });

  it.each(['client', 'address', 'epa_id', 'id', 'object', 'created_at'])('%s cannot be changed by PATCH: 400 naming it', async (field) => {
    const site = await sampleSite();
    expectError(await patch(site.id, { [field]: (site as Record<string, unknown>)[field] ?? 'x' }), invalid(field, /cannot be changed/));
  });

  it.each([
    ['name', ''],
    ['name', null],
    ['access_notes', null],
    ['access_notes', 7],
  ])('%s = %j is 400 parameter_invalid', async (field, value) => {
    const site = await sampleSite();
    expectError(await patch(site.id, { [field]: value }), invalid(field));
  });

  it('an unknown field is 400 naming it', async () => {
    const site = await sampleSite();
    expectError(await patch(site.id, { gate: '1234' }), invalid('gate', /unknown/));
  });

  it('a site that does not exist, or of the other account, is 404', async () => {
    expectError(await patch(unknownId('site'), { name: 'x' }), notFound('id'));
    const other = await findSample<Site>(app, '/v1/sites', () => true, OTHER_KEY);
    expectError(await patch(other.id, { name: 'x' }), notFound('id'));
  });

  it('a key without sites:write is 403', async () => {
    const site = await sampleSite();
    expectError(await patch(site.id, { name: 'x' }, keyWithout('sites:write')), scopeMissing);
  });

  it('keeps nothing: the site and the list read as before', async () => {
    const site = await sampleSite();
    const result = await expectNothingKept(app, [`/v1/sites/${site.id}`, '/v1/sites'], () =>
      patch(site.id, { name: 'Changed', access_notes: 'Changed', metadata: { added: 'x' } }),
    );
    expectStatus(result, 200);
  });

  describe('metadata', () => {
    metadataCases({
      app,
      method: 'PATCH',
      path: async () => `/v1/sites/${(await siteWithMetadata()).id}`,
      body: (metadata) => ({ metadata }),
      current: async () => (await siteWithMetadata()).metadata,
      success: 200,
    });
  });
});
