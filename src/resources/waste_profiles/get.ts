import { getEndpoint } from '../endpoints.js';
import { WasteProfile } from './schema.js';

export const getWasteProfile = getEndpoint({
  operationId: 'getWasteProfile',
  collection: 'waste_profiles',
  object: 'waste_profile',
  scope: 'profiles:read',
  summary: 'Retrieve a waste profile',
  item: WasteProfile,
});
