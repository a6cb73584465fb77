import { defineEndpoint, reply } from '../../http/endpoint.js';
import { timestamp } from '../../schemas/new-records.js';
import { findRecord } from '../endpoints.js';
import { CreateWasteProfileBody, WasteProfile } from './schema.js';

export const createWasteProfile = defineEndpoint({
  operationId: 'createWasteProfile',
  method: 'POST',
  path: '/v1/waste_profiles',
  scope: 'profiles:write',
  summary: 'Create a waste profile, in draft',
  body: CreateWasteProfileBody,
  idempotent: true,
  success: { status: 201, schema: WasteProfile, description: 'The new waste profile, in draft' },
  handlerErrors: [{ code: 'resource_missing', when: 'client names no client of the account' }],
  handle({ account, body, now, mint }) {
    findRecord(account, 'clients', 'client', body.client, 'client');
    const at = timestamp(now);
    const profile: WasteProfile = {
      id: mint.id('waste_profile'),
      object: 'waste_profile',
      client: body.client,
      name: body.name,
      waste_codes: body.waste_codes,
      dot_description: body.dot_description ?? '',
      status: 'draft',
      approved_by: null,
      created_at: at,
      updated_at: at,
    };
    return reply(201, profile);
  },
});
