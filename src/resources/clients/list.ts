import { enumFilter } from '../../schemas/query.js';
import { listEndpoint } from '../endpoints.js';
import { Client, CLIENT_KINDS } from './schema.js';

export const listClients = listEndpoint({
  operationId: 'listClients',
  collection: 'clients',
  object: 'client',
  scope: 'clients:read',
  summary: 'List clients, newest first',
  item: Client,
  listName: 'ClientList',
  filters: () => ({ kind: enumFilter(CLIENT_KINDS) }),
  match: ({ kind }) => (kind === undefined ? undefined : (client) => client.kind === kind),
});
