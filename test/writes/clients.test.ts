// POST /v1/clients and PATCH /v1/clients/{id} through HTTP (reference, "Clients"; SANDBOX.md).
import { describe, expect, it } from 'vitest';
import { Client } from '../../src/resources/clients/schema.js';
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
  withProtoKey,
  writesApp,
} from './helpers.js';

const app = writesApp();
const create = (body: unknown, key?: string) => send(app, 'POST', '/v1/clients', { body, ...(key ? { key } : {}) });
const patch = (id: string, body: unknown, key?: string) => send(app, 'PATCH', `/v1/clients/${id}`, { body, ...(key ? { key } : {}) });

const sampleClient = () => findSample<Client>(app, '/v1/clients');
const clientWithMetadata = () =>
  findSample<Client>(app, '/v1/clients', (client) => Object.keys(client.metadata).length > 0 && Object.keys(client.metadata).length <= 18);

describe('POST /v1/clients', () => {
  it('creates a client with the defaults of the reference and SANDBOX.md', async () => {
    const result = await create({ name: 'Harris County HHW', kind: 'hhw_program' });
    expectStatus(result, 201);
    expect(result.json).toEqual({
      id: expect.stringMatching(/^cli_[0-9A-Za-z]{14}$/),
      object: 'client',
      name: 'Harris County HHW',
      kind: 'hhw_program',
      epa_id: null,
      billing_email: null,
      portal_enabled: false,
      metadata: {},
      created_at: NOW_TIMESTAMP,
      updated_at: NOW_TIMESTAMP,
    });
    Client().parse(result.json);
  });

  it('returns every field sent', async () => {
    const result = await create({
      name: 'Gulf Labs',
      kind: 'laboratory',
      epa_id: 'TXD008123168',
      billing_email: 'ap@gulflabs.example',
      portal_enabled: true,
      metadata: { erp_id: '4411' },
    });
    expectStatus(result, 201);
    expect(result.json).toMatchObject({
      object: 'client',
      name: 'Gulf Labs',
      kind: 'laboratory',
      epa_id: 'TXD008123168',
      billing_email: 'ap@gulflabs.example',
      portal_enabled: true,
      metadata: { erp_id: '4411' },
    });
    Client().parse(result.json);
  });

  it('gives each create a new ID', async () => {
    const [a, b] = await Promise.all([create({ name: 'A', kind: 'laboratory' }), create({ name: 'A', kind: 'laboratory' })]);
    expectStatus(a, 201);
    expectStatus(b, 201);
    expect(a.json.id).not.toBe(b.json.id);
  });

  it.each(['name', 'kind'])('a missing %s is 400 parameter_missing naming it', async (field) => {
    const body: Record<string, unknown> = { name: 'Acme', kind: 'laboratory' };
    delete body[field];
    expectError(await create(body), missing(field));
  });

  it.each([
    ['name', 42],
    ['name', ''],
    ['name', '   '],
    ['name', null],
    ['kind', 'household'],
    ['kind', 1],
    ['portal_enabled', 'yes'],
    ['portal_enabled', 1],
    ['billing_email', 'not-an-email'],
    ['billing_email', 'ap@'],
    ['billing_email', 17],
    ['epa_id', 'ZZD008123168'],
    ['epa_id', 'TXD00812316'],
    ['epa_id', 'TXD0081231680'],
    ['epa_id', 'txd008123168'],
    ['epa_id', 'TX1008123168'],
    ['epa_id', 'TXDA08123168'],
    // A state code, then a well-formed EPA ID of another state: too long, however it ends.
    ['epa_id', 'TXCAD008123168'],
    ['epa_id', 8123168],
  ])('%s = %j is 400 parameter_invalid', async (field, value) => {
    expectError(await create({ name: 'Acme', kind: 'laboratory', [field]: value }), invalid(field));
  });

  it('names the rule an EPA ID breaks', async () => {
    expectError(await create({ name: 'Acme', kind: 'laboratory', epa_id: 'XXD008123168' }), invalid('epa_id', /state/));
  });

  it.each(['PRD090416132', 'DCD983971004', 'GUD980637631'])('takes the EPA ID %s of a territory or DC', async (epaId) => {
    const result = await create({ name: 'Acme', kind: 'laboratory', epa_id: epaId });
    expectStatus(result, 201);
    expect(result.json.epa_id).toBe(epaId);
  });

  it('an unknown field is 400 naming it', async () => {
    expectError(await create({ name: 'Acme', kind: 'laboratory', colour: 'red' }), invalid('colour', /unknown parameter: colour/));
  });

  it('a field only the server sets is 400 naming it', async () => {
    expectError(await create({ name: 'Acme', kind: 'laboratory', id: 'cli_00000000000000' }), invalid('id'));
    expectError(await create({ name: 'Acme', kind: 'laboratory', created_at: NOW_TIMESTAMP }), invalid('created_at'));
  });

  it('a __proto__ field is an unknown field, not a prototype', async () => {
    const result = await create(withProtoKey({ name: 'Acme', kind: 'laboratory' }, 'top', { polluted: 'yes' }));
    expectError(result, invalid('__proto__'));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a key without clients:write is 403 scope_missing, before validation', async () => {
    const key = keyWithout('clients:write');
    expectError(await create({ name: 'Acme', kind: 'laboratory' }, key), scopeMissing);
    expectError(await create({ nonsense: true }, key), scopeMissing);
  });

  it('keeps nothing: the list is unchanged and the new ID is 404 afterwards', async () => {
    const result = await expectNothingKept(app, ['/v1/clients', '/v1/clients?kind=laboratory&limit=100'], () =>
      create({ name: 'Transient Labs', kind: 'laboratory' }),
    );
    expectStatus(result, 201);
    expectError(await send(app, 'GET', `/v1/clients/${result.json.id}`), notFound('id'));
  });

  describe('metadata', () => {
    metadataCases({
      app,
      method: 'POST',
      path: async () => '/v1/clients',
      body: (metadata) => ({ name: 'Acme', kind: 'laboratory', metadata }),
      current: async () => ({}),
      success: 201,
    });
  });
});

describe('PATCH /v1/clients/{id}', () => {
  it('returns the sample client with only the change applied and a new updated_at', async () => {
    const client = await sampleClient();
    const result = await patch(client.id, { name: 'Renamed Client' });
    expectStatus(result, 200);
    expect(result.json).toEqual({ ...client, name: 'Renamed Client', updated_at: NOW_TIMESTAMP });
    Client().parse(result.json);
  });

  it('changes billing_email and portal_enabled, and null clears billing_email', async () => {
    const client = await sampleClient();
    const changed = await patch(client.id, { billing_email: 'billing@example.com', portal_enabled: !client.portal_enabled });
    expectStatus(changed, 200);
    expect(changed.json).toEqual({
      ...client,
      billing_email: 'billing@example.com',
      portal_enabled: !client.portal_enabled,
      updated_at: NOW_TIMESTAMP,
    });
    const cleared = await patch(client.id, { billing_email: null });
    expectStatus(cleared, 200);
    expect(cleared.json).toEqual({ ...client, billing_email: null, updated_at: NOW_TIMESTAMP });
    Client().parse(cleared.json);
  });

  it('an empty body changes nothing but updated_at', async () => {
    const client = await sampleClient();
    const result = await patch(client.id, {});
    expectStatus(result, 200);
    expect(result.json).toEqual({ ...client, updated_at: NOW_TIMESTAMP });
  });

  it.each(['kind', 'epa_id', 'id', 'object', 'created_at', 'updated_at'])('%s cannot be changed by PATCH: 400 naming it', async (field) => {
    const client = await sampleClient();
    expectError(
      await patch(client.id, { [field]: (client as Record<string, unknown>)[field] ?? 'x' }),
      invalid(field, /cannot be changed/),
    );
  });

  it.each([
    ['name', ''],
    ['name', 5],
    ['billing_email', 'nope'],
    ['portal_enabled', 'true'],
    ['metadata', 'x'],
  ])('%s = %j is 400 parameter_invalid', async (field, value) => {
    const client = await sampleClient();
    expectError(await patch(client.id, { [field]: value }), invalid(field));
  });

  it('an unknown field is 400 naming it', async () => {
    const client = await sampleClient();
    expectError(await patch(client.id, { nickname: 'x' }), invalid('nickname', /unknown/));
  });

  it('a client that does not exist, or of the other account, is 404', async () => {
    expectError(await patch(unknownId('cli'), { name: 'x' }), notFound('id'));
    const other = await findSample<Client>(app, '/v1/clients', () => true, OTHER_KEY);
    expectError(await patch(other.id, { name: 'x' }), notFound('id'));
    expectError(await patch('site_ZZZZZZZZZZZZZZ', { name: 'x' }), notFound('id'));
  });

  it('validation comes before the lookup: a bad body on a missing client is 400', async () => {
    expectError(await patch(unknownId('cli'), { kind: 'laboratory' }), invalid('kind'));
  });

  it('a key without clients:write is 403 before the body or the ID is looked at', async () => {
    const key = keyWithout('clients:write');
    const client = await sampleClient();
    expectError(await patch(client.id, { name: 'x' }, key), scopeMissing);
    expectError(await patch(unknownId('cli'), { kind: 'x' }, key), scopeMissing);
  });

  it('keeps nothing: the client and the list read as before', async () => {
    const client = await sampleClient();
    const result = await expectNothingKept(app, [`/v1/clients/${client.id}`, '/v1/clients'], () =>
      patch(client.id, { name: 'Changed', metadata: { added: 'x' }, portal_enabled: !client.portal_enabled }),
    );
    expectStatus(result, 200);
  });

  describe('metadata', () => {
    metadataCases({
      app,
      method: 'PATCH',
      path: async () => `/v1/clients/${(await clientWithMetadata()).id}`,
      body: (metadata) => ({ metadata }),
      current: async () => (await clientWithMetadata()).metadata,
      success: 200,
    });
  });
});
