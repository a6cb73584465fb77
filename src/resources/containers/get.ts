import { getEndpoint } from '../endpoints.js';
import { Container } from './schema.js';

export const getContainer = getEndpoint({
  operationId: 'getContainer',
  collection: 'containers',
  object: 'container',
  scope: 'containers:read',
  summary: 'Retrieve a container',
  item: Container,
});
