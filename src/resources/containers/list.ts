import { enumFilter, idFilter } from '../../schemas/query.js';
import { listEndpoint } from '../endpoints.js';
import { Container, CONTAINER_STATUSES, STORAGE_STATUSES } from './schema.js';

export const listContainers = listEndpoint({
  operationId: 'listContainers',
  collection: 'containers',
  object: 'container',
  scope: 'containers:read',
  summary: 'List containers, newest first',
  item: Container,
  listName: 'ContainerList',
  filters: () => ({
    job: idFilter('job'),
    status: enumFilter(CONTAINER_STATUSES),
    storage_status: enumFilter(STORAGE_STATUSES),
  }),
  match:
    ({ job, status, storage_status: storage }) =>
    (container) =>
      (job === undefined || container.job === job) &&
      (status === undefined || container.status === status) &&
      (storage === undefined || container.storage_status === storage),
});
