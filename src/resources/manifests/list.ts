import { enumFilter, idFilter } from '../../schemas/query.js';
import { listEndpoint } from '../endpoints.js';
import { Manifest, MANIFEST_STATUSES } from './schema.js';

export const listManifests = listEndpoint({
  operationId: 'listManifests',
  collection: 'manifests',
  object: 'manifest',
  scope: 'manifests:read',
  summary: 'List manifests, newest first, lines included',
  item: Manifest,
  listName: 'ManifestList',
  filters: () => ({ job: idFilter('job'), status: enumFilter(MANIFEST_STATUSES) }),
  match:
    ({ job, status }) =>
    (manifest) =>
      (job === undefined || manifest.job === job) && (status === undefined || manifest.status === status),
});
