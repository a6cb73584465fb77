import { ApiError } from '../../errors.js';
import { defineEndpoint, reply } from '../../http/endpoint.js';
import { mergeMetadata } from '../../schemas/input.js';
import { timestamp } from '../../schemas/new-records.js';
import { findRecord } from '../endpoints.js';
import { CreateJobBody, Job } from './schema.js';
import { statusForSchedule } from './transitions.js';

export const createJob = defineEndpoint({
  operationId: 'createJob',
  method: 'POST',
  path: '/v1/jobs',
  scope: 'jobs:write',
  summary: 'Create a job: scheduled with a date and window, a draft without',
  body: CreateJobBody,
  idempotent: true,
  emits: [{ event: 'job.created', when: 'always' }],
  success: { status: 201, schema: Job, description: 'The new job' },
  handlerErrors: [{ code: 'resource_missing', when: 'client or site names no record of the account' }],
  handle({ account, body, now, mint }) {
    findRecord(account, 'clients', 'client', body.client, 'client');
    const site = findRecord(account, 'sites', 'site', body.site, 'site');
    if (site.client !== body.client) {
      throw new ApiError('parameter_invalid', {
        param: 'site',
        message: `Invalid site: must be a site of the job's client ${body.client}; received ${site.id}, a site of client ${site.client}.`,
      });
    }
    const scheduledFor = body.scheduled_for ?? null;
    const window = body.window ?? null;
    const at = timestamp(now);
    const job: Job = {
      id: mint.id('job'),
      object: 'job',
      type: body.type,
      client: body.client,
      site: body.site,
      status: statusForSchedule(scheduledFor, window),
      scheduled_for: scheduledFor,
      window,
      crew: [],
      container_count: 0,
      invoice: null,
      metadata: mergeMetadata({}, body.metadata),
      created_at: at,
      updated_at: at,
    };
    return reply(201, job, ['job.created']);
  },
});
