// POST /v1/manifests through HTTP (reference, "Manifests"; SANDBOX.md: the facility directory,
// the generator of record, jobs in draft or cancelled refused).
import { describe, expect, it } from 'vitest';
import facilities from '../../fixtures/facilities.json' with { type: 'json' };
import type { Client } from '../../src/resources/clients/schema.js';
import type { Job } from '../../src/resources/jobs/schema.js';
import { Manifest } from '../../src/resources/manifests/schema.js';
import type { Site } from '../../src/resources/sites/schema.js';
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
  records,
  scopeMissing,
  send,
  stateInvalid,
  unknownId,
  writesApp,
} from './helpers.js';

const app = writesApp();
const create = (body: unknown, key?: string) => send(app, 'POST', '/v1/manifests', { body, ...(key ? { key } : {}) });

/** A well-formed EPA ID that is not in the facility directory. */
const NOT_A_FACILITY = 'TXD008123168';

/** A receiving facility of the directory, as a sample manifest names it. */
async function facility(): Promise<{ name: string; epa_id: string }> {
  return (await findSample<Manifest>(app, '/v1/manifests')).designated_facility;
}

interface JobWithParties {
  job: Job;
  client: Client;
  site: Site;
}

/** Sample jobs with their client and site, so generator cases can be picked by EPA IDs. */
async function jobsWithParties(): Promise<JobWithParties[]> {
  const [jobs, clients, sites] = await Promise.all([
    records<Job>(app, '/v1/jobs'),
    records<Client>(app, '/v1/clients'),
    records<Site>(app, '/v1/sites'),
  ]);
  const clientById = new Map(clients.map((client) => [client.id, client]));
  const siteById = new Map(sites.map((site) => [site.id, site]));
  return jobs.map((job) => ({ job, client: clientById.get(job.client) as Client, site: siteById.get(job.site) as Site }));
}

async function jobWhere(predicate: (entry: JobWithParties) => boolean, description: string): Promise<JobWithParties> {
  const found = (await jobsWithParties()).find(predicate);
  if (found === undefined) throw new Error(`The sample data holds no job ${description}`);
  return found;
}

const MANIFESTABLE = ['scheduled', 'in_progress', 'closed', 'billed'];

describe('POST /v1/manifests', () => {
  it('the sample facility is in the directory and NOT_A_FACILITY is not', async () => {
    const ids = facilities.map((entry) => entry.epa_id);
    expect(ids).toContain((await facility()).epa_id);
    expect(ids).not.toContain(NOT_A_FACILITY);
  });

  it.each(MANIFESTABLE)(
    'creates a draft manifest for a %s job: null tracking number, Hybrid, empty lines, generator from the client',
    async (status) => {
      const { job, client } = await jobWhere(
        (entry) => entry.job.status === status && entry.client.epa_id !== null,
        `${status} whose client has an EPA ID`,
      );
      const designated = await facility();
      const result = await create({ job: job.id, designated_facility: designated.epa_id });
      expectStatus(result, 201);
      expect(result.json).toEqual({
        id: expect.stringMatching(/^man_[0-9A-Za-z]{14}$/),
        object: 'manifest',
        job: job.id,
        manifest_tracking_number: null,
        status: 'draft',
        submission_type: 'Hybrid',
        generator: { name: client.name, epa_id: client.epa_id },
        designated_facility: designated,
        lines: [],
        created_at: NOW_TIMESTAMP,
        updated_at: NOW_TIMESTAMP,
      });
      Manifest().parse(result.json);
    },
  );

  it("takes the site's EPA ID as the generator's when the client has none", async () => {
    const { job, client, site } = await jobWhere(
      (entry) => MANIFESTABLE.includes(entry.job.status) && entry.client.epa_id === null && entry.site.epa_id !== null,
      'past draft whose client has no EPA ID but whose site has one',
    );
    const result = await create({ job: job.id, designated_facility: (await facility()).epa_id });
    expectStatus(result, 201);
    expect(result.json.generator).toEqual({ name: client.name, epa_id: site.epa_id });
    Manifest().parse(result.json);
  });

  it('a job whose client and site both lack an EPA ID has no generator of record: 422', async () => {
    const { job } = await jobWhere(
      (entry) => MANIFESTABLE.includes(entry.job.status) && entry.client.epa_id === null && entry.site.epa_id === null,
      'past draft whose client and site both lack an EPA ID',
    );
    expectError(await create({ job: job.id, designated_facility: (await facility()).epa_id }), stateInvalid(/EPA ID/));
  });

  it.each(['FullElectronic', 'Hybrid', 'DataImage5Copy', 'Image'])('takes submission_type %s', async (submissionType) => {
    const { job } = await jobWhere(
      (entry) => entry.job.status === 'scheduled' && entry.client.epa_id !== null,
      'scheduled whose client has an EPA ID',
    );
    const result = await create({ job: job.id, designated_facility: (await facility()).epa_id, submission_type: submissionType });
    expectStatus(result, 201);
    expect(result.json).toMatchObject({ submission_type: submissionType, status: 'draft', manifest_tracking_number: null, lines: [] });
    Manifest().parse(result.json);
  });

  it.each(['draft', 'cancelled'])('a %s job gets no manifest: 422 state_invalid saying its status', async (status) => {
    const job = await findSample<Job>(app, `/v1/jobs?status=${status}`);
    expectError(await create({ job: job.id, designated_facility: (await facility()).epa_id }), stateInvalid(new RegExp(`is ${status}`)));
  });

  it.each(['job', 'designated_facility'])('a missing %s is 400 parameter_missing naming it', async (field) => {
    const job = await findSample<Job>(app, '/v1/jobs?status=scheduled');
    const body: Record<string, unknown> = { job: job.id, designated_facility: (await facility()).epa_id };
    delete body[field];
    expectError(await create(body), missing(field));
  });

  it('a designated_facility that is not in the facility directory is 400', async () => {
    const job = await findSample<Job>(app, '/v1/jobs?status=scheduled');
    expectError(
      await create({ job: job.id, designated_facility: NOT_A_FACILITY }),
      invalid('designated_facility', new RegExp(NOT_A_FACILITY)),
    );
  });

  it.each([
    ['designated_facility', 'ZZD009407121'],
    ['designated_facility', 'TXD00940712'],
    ['designated_facility', { name: 'Gulf Coast', epa_id: 'TXD009407121' }],
    ['designated_facility', null],
    ['job', 'man_00000000000000'],
    ['job', 12],
    ['submission_type', 'Paper'],
    ['submission_type', 'hybrid'],
    ['submission_type', null],
  ])('%s = %j is 400 parameter_invalid', async (field, value) => {
    const job = await findSample<Job>(app, '/v1/jobs?status=scheduled');
    expectError(await create({ job: job.id, designated_facility: (await facility()).epa_id, [field]: value }), invalid(field));
  });

  it('an unknown field, or one only the server sets, is 400 naming it', async () => {
    const job = await findSample<Job>(app, '/v1/jobs?status=scheduled');
    const body = { job: job.id, designated_facility: (await facility()).epa_id };
    expectError(await create({ ...body, lines: [] }), invalid('lines'));
    expectError(await create({ ...body, manifest_tracking_number: '123456789ABC' }), invalid('manifest_tracking_number'));
    expectError(await create({ ...body, generator: 'x' }), invalid('generator'));
  });

  it('a job that does not exist, or of the other account, is 404 param job', async () => {
    const designated = (await facility()).epa_id;
    expectError(await create({ job: unknownId('job'), designated_facility: designated }), notFound('job'));
    const other = await findSample<Job>(app, '/v1/jobs', () => true, OTHER_KEY);
    expectError(await create({ job: other.id, designated_facility: designated }), notFound('job'));
  });

  it('400 comes before 404: an unknown facility with an unknown job is 400', async () => {
    expectError(await create({ job: unknownId('job'), designated_facility: NOT_A_FACILITY }), invalid('designated_facility'));
  });

  it('400 comes before 422: an unknown facility for a draft job is 400', async () => {
    const draft = await findSample<Job>(app, '/v1/jobs?status=draft');
    expectError(await create({ job: draft.id, designated_facility: NOT_A_FACILITY }), invalid('designated_facility'));
  });

  it('a key without manifests:write is 403 scope_missing, before validation', async () => {
    const key = keyWithout('manifests:write');
    const job = await findSample<Job>(app, '/v1/jobs?status=scheduled');
    expectError(await create({ job: job.id, designated_facility: (await facility()).epa_id }, key), scopeMissing);
    expectError(await create({}, key), scopeMissing);
  });

  it('keeps nothing: the lists read as before and the new ID is 404', async () => {
    const { job } = await jobWhere(
      (entry) => entry.job.status === 'closed' && entry.client.epa_id !== null,
      'closed whose client has an EPA ID',
    );
    const designated = (await facility()).epa_id;
    const result = await expectNothingKept(app, ['/v1/manifests', `/v1/manifests?job=${job.id}`, `/v1/jobs/${job.id}`], () =>
      create({ job: job.id, designated_facility: designated }),
    );
    expectStatus(result, 201);
    expectError(await send(app, 'GET', `/v1/manifests/${result.json.id}`), notFound('id'));
  });
});
