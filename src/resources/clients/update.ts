import { defineEndpoint, reply } from '../../http/endpoint.js';
import { mergeMetadata } from '../../schemas/input.js';
import { timestamp } from '../../schemas/new-records.js';
import { findRecord } from '../endpoints.js';
import { Client, UpdateClientBody } from './schema.js';

export const updateClient = defineEndpoint({
  operationId: 'updateClient',
  method: 'PATCH',
  path: '/v1/clients/{id}',
  pathId: 'client',
  scope: 'clients:write',
  summary: 'Update a client; only the fields sent change',
  body: UpdateClientBody,
  readonlyFields: ['id', 'object', 'kind', 'epa_id', 'created_at', 'updated_at'],
  success: { status: 200, schema: Client, description: 'The client with the change applied' },
  handle({ account, id, body, now }) {
    const client = findRecord(account, 'clients', 'client', id);
    const updated: Client = {
      ...client,
      name: body.name ?? client.name,
      billing_email: body.billing_email === undefined ? client.billing_email : body.billing_email,
      portal_enabled: body.portal_enabled ?? client.portal_enabled,
      metadata: mergeMetadata(client.metadata, body.metadata),
      updated_at: timestamp(now),
    };
    return reply(200, updated);
  },
});
