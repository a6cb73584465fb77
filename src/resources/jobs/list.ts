import { DateFilter, enumFilter, idFilter } from '../../schemas/query.js';
import { listEndpoint } from '../endpoints.js';
import { Job, JOB_STATUSES, JOB_TYPES } from './schema.js';

export const listJobs = listEndpoint({
  operationId: 'listJobs',
  collection: 'jobs',
  object: 'job',
  scope: 'jobs:read',
  summary: 'List jobs, soonest first',
  item: Job,
  listName: 'JobList',
  filters: () => ({
    type: enumFilter(JOB_TYPES),
    status: enumFilter(JOB_STATUSES),
    client: idFilter('client'),
    scheduled_from: DateFilter(),
  }),
  match:
    ({ type, status, client, scheduled_from: from }) =>
    (job) =>
      (type === undefined || job.type === type) &&
      (status === undefined || job.status === status) &&
      (client === undefined || job.client === client) &&
      // "jobs on or after it": an undated job is on no date, so it never matches ('' is before every date).
      (from === undefined || (job.scheduled_for ?? '') >= from),
});
