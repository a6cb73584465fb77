import { stateInvalid } from '../../errors.js';
import { defineEndpoint, reply } from '../../http/endpoint.js';
import { mergeMetadata } from '../../schemas/input.js';
import { timestamp } from '../../schemas/new-records.js';
import { findRecord } from '../endpoints.js';
import { Job, UpdateJobBody } from './schema.js';
import { EDITABLE_JOB_STATUSES, statusForSchedule } from './transitions.js';

export const updateJob = defineEndpoint({
  operationId: 'updateJob',
  method: 'PATCH',
  path: '/v1/jobs/{id}',
  pathId: 'job',
  scope: 'jobs:write',
  summary: 'Update a job that is not closed, billed or cancelled',
  body: UpdateJobBody,
  readonlyFields: ['id', 'object', 'type', 'client', 'site', 'status', 'crew', 'container_count', 'invoice', 'created_at', 'updated_at'],
  success: { status: 200, schema: Job, description: 'The job with the change applied' },
  handlerErrors: [{ code: 'state_invalid', when: 'the job is closed, billed or cancelled' }],
  emits: [{ event: 'job.scheduled', when: 'when it moves a draft to scheduled' }],
  handle({ account, id, body, now }) {
    const job = findRecord(account, 'jobs', 'job', id);
    if (!EDITABLE_JOB_STATUSES.includes(job.status)) {
      throw stateInvalid(`Job ${job.id} is ${job.status}; only a job that is ${EDITABLE_JOB_STATUSES.join(', ')} can be changed.`);
    }
    const scheduledFor = body.scheduled_for ?? job.scheduled_for;
    const window = body.window ?? job.window;
    // Adding a date and window to a draft schedules it (reference, Job transitions).
    const status = job.status === 'draft' ? statusForSchedule(scheduledFor, window) : job.status;
    const updated: Job = {
      ...job,
      status,
      scheduled_for: scheduledFor,
      window,
      metadata: mergeMetadata(job.metadata, body.metadata),
      updated_at: timestamp(now),
    };
    // A draft that gets its date and window is scheduled: job.scheduled (docs/events-from-writes.md).
    return reply(200, updated, job.status === 'draft' && status === 'scheduled' ? ['job.scheduled'] : undefined);
  },
});
