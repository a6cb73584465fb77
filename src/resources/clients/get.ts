import { getEndpoint } from '../endpoints.js';
import { Client } from './schema.js';

export const getClient = getEndpoint({
  operationId: 'getClient',
  collection: 'clients',
  object: 'client',
  scope: 'clients:read',
  summary: 'Retrieve a client',
  item: Client,
});
