import { FACILITY_EPA_IDS, facilityByEpaId } from '../../data/facilities.js';
import { ApiError, stateInvalid } from '../../errors.js';
import { defineEndpoint, reply } from '../../http/endpoint.js';
import { didYouMean, listOf, quoted } from '../../http/messages.js';
import { timestamp } from '../../schemas/new-records.js';
import { findRecord } from '../endpoints.js';
import type { JobStatus } from '../jobs/schema.js';
import { CreateManifestBody, Manifest } from './schema.js';

/** A manifest cannot be built for a job in these states: 422 state_invalid. */
const JOB_STATUSES_WITHOUT_MANIFEST: readonly JobStatus[] = ['draft', 'cancelled'];

export const createManifest = defineEndpoint({
  operationId: 'createManifest',
  method: 'POST',
  path: '/v1/manifests',
  scope: 'manifests:write',
  summary: "Create a draft manifest for a job; the generator is the job's client",
  body: CreateManifestBody,
  idempotent: true,
  success: { status: 201, schema: Manifest, description: 'The new manifest, in draft, with empty lines' },
  handlerErrors: [
    { code: 'resource_missing', when: 'job names no job of the account' },
    { code: 'state_invalid', when: 'the job is a draft or cancelled, or neither its client nor its site has an EPA ID' },
  ],
  handle({ account, body, now, mint }) {
    const facility = facilityByEpaId(body.designated_facility);
    if (facility === undefined) {
      throw new ApiError('parameter_invalid', {
        param: 'designated_facility',
        message: `Invalid designated_facility: must be the EPA ID of a receiving facility of the sandbox's directory (${listOf(FACILITY_EPA_IDS)}); received ${quoted(body.designated_facility)}.${didYouMean(body.designated_facility, FACILITY_EPA_IDS)}`,
      });
    }
    const job = findRecord(account, 'jobs', 'job', body.job, 'job');
    if (JOB_STATUSES_WITHOUT_MANIFEST.includes(job.status)) {
      throw stateInvalid(`Job ${job.id} is ${job.status}; a manifest needs a job that is scheduled or later and not cancelled.`);
    }
    const client = findRecord(account, 'clients', 'client', job.client, 'job');
    const site = findRecord(account, 'sites', 'site', job.site, 'job');
    // The generator of record: the client's EPA ID, or the site's when the client has none.
    const generatorEpaId = client.epa_id ?? site.epa_id;
    if (generatorEpaId === null) {
      throw stateInvalid(`Neither client ${client.id} nor site ${site.id} has an EPA ID, so the manifest has no generator of record.`);
    }
    const at = timestamp(now);
    const manifest: Manifest = {
      id: mint.id('manifest'),
      object: 'manifest',
      job: job.id,
      manifest_tracking_number: null,
      status: 'draft',
      submission_type: body.submission_type ?? 'Hybrid',
      generator: { name: client.name, epa_id: generatorEpaId },
      designated_facility: { name: facility.name, epa_id: facility.epa_id },
      lines: [],
      created_at: at,
      updated_at: at,
    };
    return reply(201, manifest);
  },
});
