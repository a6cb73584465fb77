import { stateInvalid } from '../../errors.js';
import { defineEndpoint, reply } from '../../http/endpoint.js';
import { timestamp } from '../../schemas/new-records.js';
import { findRecord } from '../endpoints.js';
import { CancelJobBody, Job } from './schema.js';
import { CANCELLABLE_JOB_STATUSES } from './transitions.js';

export const cancelJob = defineEndpoint({
  operationId: 'cancelJob',
  method: 'POST',
  path: '/v1/jobs/{id}/cancel',
  pathId: 'job',
  scope: 'jobs:write',
  summary: 'Cancel a job that has not started',
  body: CancelJobBody,
  idempotent: true,
  success: { status: 200, schema: Job, description: 'The job, cancelled' },
  handlerErrors: [{ code: 'state_invalid', when: 'the job is neither draft nor scheduled' }],
  handle({ account, id, now }) {
    const job = findRecord(account, 'jobs', 'job', id);
    if (!CANCELLABLE_JOB_STATUSES.includes(job.status)) {
      throw stateInvalid(`Job ${job.id} is ${job.status}; only a job that is ${CANCELLABLE_JOB_STATUSES.join(' or ')} can be cancelled.`);
    }
    const cancelled: Job = { ...job, status: 'cancelled', updated_at: timestamp(now) };
    return reply(200, cancelled);
  },
});
