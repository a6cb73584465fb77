import { getEndpoint } from '../endpoints.js';
import { Site } from './schema.js';

export const getSite = getEndpoint({
  operationId: 'getSite',
  collection: 'sites',
  object: 'site',
  scope: 'sites:read',
  summary: 'Retrieve a site',
  item: Site,
});
