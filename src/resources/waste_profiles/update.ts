import { stateInvalid } from '../../errors.js';
import { defineEndpoint, reply } from '../../http/endpoint.js';
import { timestamp } from '../../schemas/new-records.js';
import { findRecord } from '../endpoints.js';
import { UpdateWasteProfileBody, WasteProfile } from './schema.js';
import { EDITABLE_PROFILE_STATUSES } from './transitions.js';

export const updateWasteProfile = defineEndpoint({
  operationId: 'updateWasteProfile',
  method: 'PATCH',
  path: '/v1/waste_profiles/{id}',
  pathId: 'waste_profile',
  scope: 'profiles:write',
  summary: 'Update a draft waste profile',
  body: UpdateWasteProfileBody,
  readonlyFields: ['id', 'object', 'client', 'status', 'approved_by', 'created_at', 'updated_at'],
  success: { status: 200, schema: WasteProfile, description: 'The waste profile with the change applied' },
  handlerErrors: [{ code: 'state_invalid', when: 'the profile is not a draft' }],
  handle({ account, id, body, now }) {
    const profile = findRecord(account, 'waste_profiles', 'waste_profile', id);
    if (!EDITABLE_PROFILE_STATUSES.includes(profile.status)) {
      throw stateInvalid(
        `Waste profile ${profile.id} is ${profile.status}; only a draft profile can be changed. Create a new profile instead.`,
      );
    }
    const updated: WasteProfile = {
      ...profile,
      name: body.name ?? profile.name,
      waste_codes: body.waste_codes ?? profile.waste_codes,
      dot_description: body.dot_description ?? profile.dot_description,
      updated_at: timestamp(now),
    };
    return reply(200, updated);
  },
});
