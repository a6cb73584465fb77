// POST /v1/waste_profiles and PATCH /v1/waste_profiles/{id} through HTTP (reference, "Waste
// profiles"; SANDBOX.md: waste codes against the library, PATCH on draft profiles only).
import { describe, expect, it } from 'vitest';
import type { Client } from '../../src/resources/clients/schema.js';
import { WasteProfile } from '../../src/resources/waste_profiles/schema.js';
import {
  expectError,
  expectNothingKept,
  expectStatus,
  findSample,
  invalid,
  keyWithout,
  missing,
  notFound,
  NOW_TIMESTAMP,
  OTHER_KEY,
  scopeMissing,
  send,
  stateInvalid,
  unknownId,
  writesApp,
} from './helpers.js';

const app = writesApp();
const create = (body: unknown, key?: string) => send(app, 'POST', '/v1/waste_profiles', { body, ...(key ? { key } : {}) });
const patch = (id: string, body: unknown, key?: string) =>
  send(app, 'PATCH', `/v1/waste_profiles/${id}`, { body, ...(key ? { key } : {}) });

const sampleClient = () => findSample<Client>(app, '/v1/clients');
const profileIn = (status: string) => findSample<WasteProfile>(app, `/v1/waste_profiles?status=${status}`);

async function validBody(): Promise<Record<string, unknown>> {
  return { client: (await sampleClient()).id, name: 'Spent solvent', waste_codes: ['D001', 'F005'] };
}

describe('POST /v1/waste_profiles', () => {
  it('creates a draft profile: approved_by null, dot_description "" when not sent', async () => {
    const body = await validBody();
    const result = await create(body);
    expectStatus(result, 201);
    expect(result.json).toEqual({
      id: expect.stringMatching(/^prof_[0-9A-Za-z]{14}$/),
      object: 'waste_profile',
      client: body.client,
      name: 'Spent solvent',
      waste_codes: ['D001', 'F005'],
      dot_description: '',
      status: 'draft',
      approved_by: null,
      created_at: NOW_TIMESTAMP,
      updated_at: NOW_TIMESTAMP,
    });
    WasteProfile().parse(result.json);
  });

  it('returns the dot_description sent', async () => {
    const dot = 'UN1993, Waste Flammable liquid, n.o.s. (Acetone, Xylene), 3, PG II';
    const result = await create({ ...(await validBody()), dot_description: dot });
    expectStatus(result, 201);
    expect(result.json).toMatchObject({ dot_description: dot, status: 'draft' });
    WasteProfile().parse(result.json);
  });

  it.each([
    ['federal D, F, K, P and U codes', ['D001', 'F003', 'K001', 'P001', 'U002']],
    ['a California state code', ['121']],
    ['a Texas state code', ['0001101H']],
    ['a Washington state code', ['WP01']],
    ['federal and state codes together', ['D001', '121', 'WP01']],
  ])('takes %s', async (_case, codes) => {
    const result = await create({ ...(await validBody()), waste_codes: codes });
    expectStatus(result, 201);
    expect(result.json.waste_codes).toEqual(codes);
    WasteProfile().parse(result.json);
  });

  it.each(['client', 'name', 'waste_codes'])('a missing %s is 400 parameter_missing naming it', async (field) => {
    const body = await validBody();
    delete body[field];
    expectError(await create(body), missing(field));
  });

  it('an unknown waste code is 400 on waste_codes[i], the message naming the code', async () => {
    expectError(await create({ ...(await validBody()), waste_codes: ['D001', 'F005', 'D999'] }), invalid('waste_codes[2]', /D999/));
    expectError(await create({ ...(await validBody()), waste_codes: ['X123'] }), invalid('waste_codes[0]', /X123/));
    // Codes are exact: a lower-case federal code is not in the library.
    expectError(await create({ ...(await validBody()), waste_codes: ['d001'] }), invalid('waste_codes[0]', /d001/));
  });

  it.each([
    ['an empty list', []],
    ['a string instead of a list', 'D001'],
    ['null', null],
  ])('waste_codes as %s is 400 param waste_codes', async (_case, codes) => {
    expectError(await create({ ...(await validBody()), waste_codes: codes }), invalid('waste_codes'));
  });

  it('a code that is not a string is 400 on its index', async () => {
    expectError(await create({ ...(await validBody()), waste_codes: ['D001', 1] }), invalid('waste_codes[1]'));
  });

  it('a code listed twice is 400 on the second', async () => {
    expectError(await create({ ...(await validBody()), waste_codes: ['D001', 'F005', 'D001'] }), invalid('waste_codes[2]', /D001/));
  });

  it.each([
    ['client', 'prof_00000000000000'],
    ['name', ''],
    ['name', 3],
    ['dot_description', 5],
    ['dot_description', ['UN1993']],
  ])('%s = %j is 400 parameter_invalid', async (field, value) => {
    expectError(await create({ ...(await validBody()), [field]: value }), invalid(field));
  });

  it('an unknown field, or one only the server sets, is 400 naming it', async () => {
    expectError(await create({ ...(await validBody()), hazard: 'flammable' }), invalid('hazard'));
    expectError(await create({ ...(await validBody()), status: 'approved' }), invalid('status'));
    expectError(await create({ ...(await validBody()), approved_by: 'Facility' }), invalid('approved_by'));
  });

  it('a client that does not exist, or of the other account, is 404 param client', async () => {
    expectError(await create({ ...(await validBody()), client: unknownId('cli') }), notFound('client'));
    const other = await findSample<Client>(app, '/v1/clients', () => true, OTHER_KEY);
    expectError(await create({ ...(await validBody()), client: other.id }), notFound('client'));
  });

  it('validation before lookup: an unknown code with a missing client is 400', async () => {
    expectError(await create({ client: unknownId('cli'), name: 'x', waste_codes: ['Q000'] }), invalid('waste_codes[0]'));
  });

  it('a key without profiles:write is 403 scope_missing, before validation', async () => {
    const key = keyWithout('profiles:write');
    expectError(await create(await validBody(), key), scopeMissing);
    expectError(await create({ waste_codes: 'bad' }, key), scopeMissing);
  });

  it('keeps nothing: the lists read as before and the new ID is 404', async () => {
    const result = await expectNothingKept(app, ['/v1/waste_profiles', '/v1/waste_profiles?status=draft&limit=100'], async () =>
      create(await validBody()),
    );
    expectStatus(result, 201);
    expectError(await send(app, 'GET', `/v1/waste_profiles/${result.json.id}`), notFound('id'));
  });
});

describe('PATCH /v1/waste_profiles/{id}', () => {
  it('changes a draft profile: only the change applied and a new updated_at', async () => {
    const profile = await profileIn('draft');
    const result = await patch(profile.id, { name: 'Renamed stream', waste_codes: ['D002', '121'] });
    expectStatus(result, 200);
    expect(result.json).toEqual({ ...profile, name: 'Renamed stream', waste_codes: ['D002', '121'], updated_at: NOW_TIMESTAMP });
    WasteProfile().parse(result.json);
  });

  it('waste_codes replaces the whole list', async () => {
    const profile = await profileIn('draft');
    const result = await patch(profile.id, { waste_codes: ['WP01'] });
    expectStatus(result, 200);
    expect(result.json.waste_codes).toEqual(['WP01']);
  });

  it('dot_description changes alone', async () => {
    const profile = await profileIn('draft');
    const result = await patch(profile.id, { dot_description: 'UN3082, 9, PG III' });
    expectStatus(result, 200);
    expect(result.json).toEqual({ ...profile, dot_description: 'UN3082, 9, PG III', updated_at: NOW_TIMESTAMP });
  });

  it.each(['submitted', 'approved', 'expired'])('a %s profile cannot be changed: 422 state_invalid saying its status', async (status) => {
    const profile = await profileIn(status);
    expectError(await patch(profile.id, { name: 'x' }), stateInvalid(new RegExp(`${status}.*draft`)));
  });

  it('waste codes are checked on PATCH too, and before the state rule', async () => {
    const draft = await profileIn('draft');
    expectError(await patch(draft.id, { waste_codes: ['D001', 'BOGUS'] }), invalid('waste_codes[1]', /BOGUS/));
    const approved = await profileIn('approved');
    expectError(await patch(approved.id, { waste_codes: ['BOGUS'] }), invalid('waste_codes[0]', /BOGUS/));
    expectError(await patch(draft.id, { waste_codes: [] }), invalid('waste_codes'));
  });

  it.each(['status', 'client', 'approved_by', 'id', 'object', 'created_at', 'updated_at'])(
    '%s cannot be changed by PATCH: 400 naming it',
    async (field) => {
      const profile = await profileIn('draft');
      expectError(
        await patch(profile.id, { [field]: (profile as Record<string, unknown>)[field] ?? 'x' }),
        invalid(field, /cannot be changed/),
      );
    },
  );

  it('an unknown field is 400 naming it', async () => {
    const profile = await profileIn('draft');
    expectError(await patch(profile.id, { metadata: {} }), invalid('metadata', /unknown/));
  });

  it('a profile that does not exist, or of the other account, is 404', async () => {
    expectError(await patch(unknownId('prof'), { name: 'x' }), notFound('id'));
    const other = await findSample<WasteProfile>(app, '/v1/waste_profiles', () => true, OTHER_KEY);
    expectError(await patch(other.id, { name: 'x' }), notFound('id'));
  });

  it('a key without profiles:write is 403, before the state rule', async () => {
    const approved = await profileIn('approved');
    expectError(await patch(approved.id, { name: 'x' }, keyWithout('profiles:write')), scopeMissing);
  });

  it('keeps nothing: the profile and the list read as before', async () => {
    const profile = await profileIn('draft');
    const result = await expectNothingKept(app, [`/v1/waste_profiles/${profile.id}`, '/v1/waste_profiles'], () =>
      patch(profile.id, { name: 'Changed', waste_codes: ['D003'] }),
    );
    expectStatus(result, 200);
  });
});
