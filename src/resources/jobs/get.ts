import { getEndpoint } from '../endpoints.js';
import { Job } from './schema.js';

export const getJob = getEndpoint({
  operationId: 'getJob',
  collection: 'jobs',
  object: 'job',
  scope: 'jobs:read',
  summary: 'Retrieve a job, crew included',
  item: Job,
});
