import { enumFilter, idFilter } from '../../schemas/query.js';
import { listEndpoint } from '../endpoints.js';
import { PROFILE_STATUSES, WasteProfile } from './schema.js';

export const listWasteProfiles = listEndpoint({
  operationId: 'listWasteProfiles',
  collection: 'waste_profiles',
  object: 'waste_profile',
  scope: 'profiles:read',
  summary: 'List waste profiles, newest first',
  item: WasteProfile,
  listName: 'WasteProfileList',
  filters: () => ({ client: idFilter('client'), status: enumFilter(PROFILE_STATUSES) }),
  match:
    ({ client, status }) =>
    (profile) =>
      (client === undefined || profile.client === client) && (status === undefined || profile.status === status),
});
