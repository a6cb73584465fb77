import { getEndpoint } from '../endpoints.js';
import { Manifest } from './schema.js';

export const getManifest = getEndpoint({
  operationId: 'getManifest',
  collection: 'manifests',
  object: 'manifest',
  scope: 'manifests:read',
  summary: 'Retrieve a manifest with its lines',
  item: Manifest,
});
