// POST /v1/jobs, PATCH /v1/jobs/{id} and POST /v1/jobs/{id}/cancel through HTTP (reference,
// "Jobs" and the Job transitions; SANDBOX.md: windows, dates, state rules beyond the reference).
import { describe, expect, it } from 'vitest';
import type { Client } from '../../src/resources/clients/schema.js';
import { Job } from '../../src/resources/jobs/schema.js';
import type { Site } from '../../src/resources/sites/schema.js';
import {
  expectError,
  expectNothingKept,
  expectStatus,
  findSample,
  invalid,
  JOBS_KEY,
  keyWithout,
  metadataCases,
  missing,
  notFound,
  NOW_TIMESTAMP,
  OTHER_KEY,
  records,
  scopeMissing,
  send,
  stateInvalid,
  unknownId,
  writesApp,
} from './helpers.js';

const app = writesApp();
const create = (body: unknown, key?: string) => send(app, 'POST', '/v1/jobs', { body, ...(key ? { key } : {}) });
const patch = (id: string, body: unknown, key?: string) => send(app, 'PATCH', `/v1/jobs/${id}`, { body, ...(key ? { key } : {}) });
const cancel = (id: string, body?: unknown, key?: string) =>
  send(app, 'POST', `/v1/jobs/${id}/cancel`, { ...(body === undefined ? {} : { body }), ...(key ? { key } : {}) });

const jobIn = (status: string, predicate: (job: Job) => boolean = () => true) =>
  findSample<Job>(app, `/v1/jobs?status=${status}`, predicate);
const sampleSite = () => findSample<Site>(app, '/v1/sites');

/** A valid create body: a site and its own client. */
async function validBody(): Promise<Record<string, unknown>> {
  const site = await sampleSite();
  return { type: 'ci_pickup', client: site.client, site: site.id };
}

const WINDOW = { start: '08:00', end: '12:30' };

describe('POST /v1/jobs', () => {
  it('creates a draft job when neither date nor window is given', async () => {
    const body = await validBody();
    const result = await create(body);
    expectStatus(result, 201);
    expect(result.json).toEqual({
      id: expect.stringMatching(/^job_[0-9A-Za-z]{14}$/),
      object: 'job',
      type: 'ci_pickup',
      client: body.client,
      site: body.site,
      status: 'draft',
      scheduled_for: null,
      window: null,
      crew: [],
      container_count: 0,
      invoice: null,
      metadata: {},
      created_at: NOW_TIMESTAMP,
      updated_at: NOW_TIMESTAMP,
    });
    Job().parse(result.json);
  });

  it('creates a scheduled job when both date and window are given', async () => {
    const body = { ...(await validBody()), type: 'hhw_event', scheduled_for: '2026-09-12', window: WINDOW, metadata: { po: '77' } };
    const result = await create(body);
    expectStatus(result, 201);
    expect(result.json).toMatchObject({
      type: 'hhw_event',
      status: 'scheduled',
      scheduled_for: '2026-09-12',
      window: WINDOW,
      metadata: { po: '77' },
      crew: [],
      container_count: 0,
      invoice: null,
    });
    Job().parse(result.json);
  });

  it.each([
    ['a date alone', { scheduled_for: '2026-09-12' }, { scheduled_for: '2026-09-12', window: null }],
    ['a window alone', { window: WINDOW }, { scheduled_for: null, window: WINDOW }],
  ])('stays a draft with %s', async (_case, extra, expected) => {
    const result = await create({ ...(await validBody()), ...extra });
    expectStatus(result, 201);
    expect(result.json).toMatchObject({ status: 'draft', ...expected });
    Job().parse(result.json);
  });

  it.each(['hhw_event', 'ci_pickup', 'lab_pack'])('takes type %s', async (type) => {
    const result = await create({ ...(await validBody()), type });
    expectStatus(result, 201);
    expect(result.json.type).toBe(type);
  });

  it.each(['type', 'client', 'site'])('a missing %s is 400 parameter_missing naming it', async (field) => {
    const body = await validBody();
    delete body[field];
    expectError(await create(body), missing(field));
  });

  it.each([
    ['window.start', { end: '10:00' }],
    ['window.end', { start: '10:00' }],
  ])('a window without %s is 400 parameter_missing naming the nested field', async (param, window) => {
    expectError(await create({ ...(await validBody()), window }), missing(param));
  });

  it.each([
    ['24:00', '25:00', 'window.start'],
    ['7:00', '09:00', 'window.start'],
    ['07:60', '09:00', 'window.start'],
    ['0700', '09:00', 'window.start'],
    ['07:00:00', '09:00', 'window.start'],
    ['08:00', '24:00', 'window.end'],
    ['08:00', '9:00', 'window.end'],
  ])('a window %s–%s is 400 on %s (HH:MM from 00:00 to 23:59)', async (start, end, param) => {
    expectError(await create({ ...(await validBody()), window: { start, end } }), invalid(param, /HH:MM/));
  });

  it('the edges 00:00 and 23:59 are valid times', async () => {
    const result = await create({ ...(await validBody()), scheduled_for: '2026-09-12', window: { start: '00:00', end: '23:59' } });
    expectStatus(result, 201);
    expect(result.json.window).toEqual({ start: '00:00', end: '23:59' });
  });

  it.each([
    ['12:00', '08:00'],
    ['08:00', '08:00'],
  ])('a window %s–%s whose end is not after its start is 400 on window.end', async (start, end) => {
    expectError(await create({ ...(await validBody()), window: { start, end } }), invalid('window.end', /start/));
  });

  it.each([
    ['window', '08:00-12:00'],
    ['window', null],
    ['window.start', 800],
  ])('%s of the wrong type is 400 parameter_invalid', async (param, value) => {
    const body = await validBody();
    const window = param === 'window' ? value : { ...WINDOW, start: value };
    expectError(await create({ ...body, window }), invalid(param));
  });

  it('an unknown field inside window is 400 naming its path', async () => {
    expectError(await create({ ...(await validBody()), window: { ...WINDOW, tz: 'UTC' } }), invalid('window.tz'));
  });

  it.each(['2026-02-30', '2026-02-29', '2026-13-01', '2026-04-31', '2026-9-12', '12/09/2026', '2026-09-12T08:00:00Z', ''])(
    'scheduled_for %j is not a real calendar date: 400',
    async (date) => {
      expectError(await create({ ...(await validBody()), scheduled_for: date }), invalid('scheduled_for'));
    },
  );

  it('a leap day is a real date', async () => {
    const result = await create({ ...(await validBody()), scheduled_for: '2028-02-29', window: WINDOW });
    expectStatus(result, 201);
    expect(result.json).toMatchObject({ scheduled_for: '2028-02-29', status: 'scheduled' });
  });

  it.each([
    ['type', 'pickup'],
    ['type', 2],
    ['client', 'site_0000000000000'],
    ['site', 7],
    ['scheduled_for', 20260912],
  ])('%s = %j is 400 parameter_invalid', async (field, value) => {
    expectError(await create({ ...(await validBody()), [field]: value }), invalid(field));
  });

  it('an unknown field, or one only the server sets, is 400 naming it', async () => {
    expectError(await create({ ...(await validBody()), crew: [] }), invalid('crew'));
    expectError(await create({ ...(await validBody()), status: 'scheduled' }), invalid('status'));
    expectError(await create({ ...(await validBody()), priority: 'high' }), invalid('priority'));
  });

  it('a client or site that does not exist is 404 naming the field', async () => {
    const body = await validBody();
    expectError(await create({ ...body, client: unknownId('cli') }), notFound('client'));
    expectError(await create({ ...body, site: unknownId('site') }), notFound('site'));
  });

  it.each(['cli_', 'cli_doesnotexist0000', 'cli_x', 'cli_ü/..'])(
    'a client ID of any length or alphabet (%j) is looked up: 404 naming the field, never a format rule',
    async (client) => {
      expectError(await create({ ...(await validBody()), client }), notFound('client'));
    },
  );

  it('a client or site of the other account is 404 naming the field', async () => {
    const body = await validBody();
    const otherSite = await findSample<Site>(app, '/v1/sites', () => true, OTHER_KEY);
    expectError(await create({ ...body, client: otherSite.client }), notFound('client'));
    expectError(await create({ ...body, site: otherSite.id }), notFound('site'));
  });

  it('a site of another client is 400 param site', async () => {
    const sites = await records<Site>(app, '/v1/sites');
    const site = sites[0] as Site;
    const otherClient = await findSample<Client>(app, '/v1/clients', (client) => client.id !== site.client);
    expectError(await create({ type: 'lab_pack', client: otherClient.id, site: site.id }), invalid('site', new RegExp(site.id)));
  });

  it('validation comes before the lookups: a bad window with unknown records is 400', async () => {
    expectError(
      await create({ type: 'lab_pack', client: unknownId('cli'), site: unknownId('site'), window: { start: '24:00', end: '25:00' } }),
      invalid('window.start'),
    );
  });

  it('a key without jobs:write is 403 scope_missing; the jobs-only key may create', async () => {
    expectError(await create(await validBody(), keyWithout('jobs:write')), scopeMissing);
    expectError(await create({}, keyWithout('jobs:write')), scopeMissing);
    // jobs:write alone is enough: the client and site it names need no clients or sites scope.
    expectStatus(await create(await validBody(), JOBS_KEY), 201);
    expectError(await send(app, 'POST', '/v1/clients', { body: { name: 'x', kind: 'laboratory' }, key: JOBS_KEY }), scopeMissing);
  });

  it('keeps nothing: the lists read as before and the new ID is 404', async () => {
    const body: Record<string, unknown> = { ...(await validBody()), scheduled_for: '2026-09-12', window: WINDOW };
    const result = await expectNothingKept(app, ['/v1/jobs', '/v1/jobs?status=scheduled&limit=100', `/v1/jobs?client=${body.client}`], () =>
      create(body),
    );
    expectStatus(result, 201);
    expectError(await send(app, 'GET', `/v1/jobs/${result.json.id}`), notFound('id'));
    expectError(await cancel(result.json.id), notFound('id'));
  });

  describe('metadata', () => {
    metadataCases({
      app,
      method: 'POST',
      path: async () => '/v1/jobs',
      body: async (metadata) => ({ ...(await validBody()), metadata }),
      current: async () => ({}),
      success: 201,
    });
  });
});

describe('PATCH /v1/jobs/{id}', () => {
  it('a draft job given a date and a window becomes scheduled', async () => {
    const job = await jobIn('draft', (candidate) => candidate.scheduled_for === null && candidate.window === null);
    const result = await patch(job.id, { scheduled_for: '2026-10-01', window: WINDOW });
    expectStatus(result, 200);
    expect(result.json).toEqual({ ...job, status: 'scheduled', scheduled_for: '2026-10-01', window: WINDOW, updated_at: NOW_TIMESTAMP });
    Job().parse(result.json);
  });

  it('a draft job given only a date stays a draft', async () => {
    const job = await jobIn('draft', (candidate) => candidate.window === null);
    const result = await patch(job.id, { scheduled_for: '2026-10-01' });
    expectStatus(result, 200);
    expect(result.json).toEqual({ ...job, scheduled_for: '2026-10-01', updated_at: NOW_TIMESTAMP });
  });

  it('a draft job keeps its status when only metadata changes', async () => {
    const job = await jobIn('draft');
    const result = await patch(job.id, { metadata: { note: 'x' } });
    expectStatus(result, 200);
    expect(result.json).toEqual({ ...job, metadata: { ...job.metadata, note: 'x' }, updated_at: NOW_TIMESTAMP });
  });

  it.each(['scheduled', 'in_progress'])('a %s job can be changed and keeps its status', async (status) => {
    const job = await jobIn(status);
    const result = await patch(job.id, { scheduled_for: '2026-11-02', window: { start: '06:30', end: '07:45' } });
    expectStatus(result, 200);
    expect(result.json).toEqual({
      ...job,
      scheduled_for: '2026-11-02',
      window: { start: '06:30', end: '07:45' },
      updated_at: NOW_TIMESTAMP,
    });
    Job().parse(result.json);
  });

  it.each(['closed', 'billed', 'cancelled'])('a %s job cannot be changed: 422 state_invalid saying its status', async (status) => {
    const job = await jobIn(status);
    expectError(await patch(job.id, { metadata: { note: 'x' } }), stateInvalid(new RegExp(`is ${status}`)));
  });

  it('validation comes before the state rule: a bad body on a closed job is 400', async () => {
    const job = await jobIn('closed');
    expectError(await patch(job.id, { window: { start: '10:00', end: '09:00' } }), invalid('window.end'));
    expectError(await patch(job.id, { status: 'draft' }), invalid('status', /cannot be changed/));
  });

  it.each([
    ['scheduled_for', '2026-02-30', 'scheduled_for'],
    ['scheduled_for', null, 'scheduled_for'],
    ['window', { start: '7:00', end: '09:00' }, 'window.start'],
    ['window', { start: '09:00', end: '24:00' }, 'window.end'],
    ['window', null, 'window'],
  ])('%s = %j is 400 on %s', async (field, value, param) => {
    const job = await jobIn('scheduled');
    expectError(await patch(job.id, { [field]: value }), invalid(param));
  });

  it('a window missing its end is 400 parameter_missing window.end', async () => {
    const job = await jobIn('scheduled');
    expectError(await patch(job.id, { window: { start: '09:00' } }), missing('window.end'));
  });

  it.each(['type', 'client', 'site', 'status', 'crew', 'container_count', 'invoice', 'id', 'object', 'created_at', 'updated_at'])(
    '%s cannot be changed by PATCH: 400 naming it',
    async (field) => {
      const job = await jobIn('scheduled');
      expectError(await patch(job.id, { [field]: (job as Record<string, unknown>)[field] ?? 'x' }), invalid(field, /cannot be changed/));
    },
  );

  it('an unknown field is 400 naming it', async () => {
    const job = await jobIn('scheduled');
    expectError(await patch(job.id, { reason: 'x' }), invalid('reason', /unknown/));
  });

  it('a job that does not exist, or of the other account, is 404 — even when that job is closed', async () => {
    expectError(await patch(unknownId('job'), { metadata: {} }), notFound('id'));
    const otherClosed = await findSample<Job>(app, '/v1/jobs?status=closed', () => true, OTHER_KEY);
    expectError(await patch(otherClosed.id, { metadata: {} }), notFound('id'));
  });

  it('a key without jobs:write is 403 before validation and the state rule', async () => {
    const job = await jobIn('closed');
    expectError(await patch(job.id, { window: 'x' }, keyWithout('jobs:write')), scopeMissing);
  });

  it('keeps nothing: the job and the list read as before', async () => {
    const job = await jobIn('draft');
    const result = await expectNothingKept(app, [`/v1/jobs/${job.id}`, '/v1/jobs', '/v1/jobs?status=draft&limit=100'], () =>
      patch(job.id, { scheduled_for: '2026-10-01', window: WINDOW, metadata: { added: 'x' } }),
    );
    expectStatus(result, 200);
    expect(result.json.status).toBe('scheduled');
  });

  describe('metadata', () => {
    const jobWithMetadata = () =>
      jobIn('scheduled', (job) => Object.keys(job.metadata).length > 0 && Object.keys(job.metadata).length <= 18);
    metadataCases({
      app,
      method: 'PATCH',
      path: async () => `/v1/jobs/${(await jobWithMetadata()).id}`,
      body: (metadata) => ({ metadata }),
      current: async () => (await jobWithMetadata()).metadata,
      success: 200,
    });
  });
});

describe('POST /v1/jobs/{id}/cancel', () => {
  it.each(['draft', 'scheduled'])('cancels a %s job: status cancelled, a new updated_at, nothing else', async (status) => {
    const job = await jobIn(status);
    const result = await cancel(job.id, { reason: 'Client asked to postpone' });
    expectStatus(result, 200);
    expect(result.json).toEqual({ ...job, status: 'cancelled', updated_at: NOW_TIMESTAMP });
    Job().parse(result.json);
  });

  it('works with no body at all (an empty POST body is {})', async () => {
    const job = await jobIn('scheduled');
    const result = await cancel(job.id);
    expectStatus(result, 200);
    expect(result.json).toEqual({ ...job, status: 'cancelled', updated_at: NOW_TIMESTAMP });
  });

  it.each(['in_progress', 'closed', 'billed', 'cancelled'])(
    'a %s job cannot be cancelled: 422 state_invalid saying its status and what is allowed',
    async (status) => {
      const job = await jobIn(status);
      const result = await cancel(job.id, { reason: 'x' });
      expectError(result, stateInvalid(new RegExp(`is ${status}`)));
      expect(result.json.error.message).toMatch(/draft/);
      expect(result.json.error.message).toMatch(/scheduled/);
    },
  );

  it.each([
    ['reason', 5],
    ['reason', null],
    ['reason', ['x']],
  ])('%s = %j is 400 parameter_invalid', async (field, value) => {
    const job = await jobIn('scheduled');
    expectError(await cancel(job.id, { [field]: value }), invalid(field));
  });

  it('an unknown field is 400 naming it, before the state rule', async () => {
    const job = await jobIn('closed');
    expectError(await cancel(job.id, { status: 'cancelled' }), invalid('status'));
  });

  it('a job that does not exist, or of the other account, is 404', async () => {
    expectError(await cancel(unknownId('job')), notFound('id'));
    const other = await findSample<Job>(app, '/v1/jobs?status=scheduled', () => true, OTHER_KEY);
    expectError(await cancel(other.id), notFound('id'));
    expectError(await cancel('cli_ZZZZZZZZZZZZZZ'), notFound('id'));
  });

  it('a key without jobs:write is 403', async () => {
    const job = await jobIn('scheduled');
    expectError(await cancel(job.id, {}, keyWithout('jobs:write')), scopeMissing);
  });

  it('keeps nothing: the job and the lists read as before, and it can be cancelled again', async () => {
    const job = await jobIn('scheduled');
    const paths = [`/v1/jobs/${job.id}`, '/v1/jobs?status=scheduled&limit=100', '/v1/jobs?status=cancelled&limit=100'];
    const first = await expectNothingKept(app, paths, () => cancel(job.id));
    expectStatus(first, 200);
    expectStatus(await cancel(job.id), 200);
  });
});
