import { idFilter } from '../../schemas/query.js';
import { listEndpoint } from '../endpoints.js';
import { Site } from './schema.js';

export const listSites = listEndpoint({
  operationId: 'listSites',
  collection: 'sites',
  object: 'site',
  scope: 'sites:read',
  summary: 'List sites, newest first',
  item: Site,
  listName: 'SiteList',
  filters: () => ({ client: idFilter('client') }),
  match: ({ client }) => (client === undefined ? undefined : (site) => site.client === client),
});
