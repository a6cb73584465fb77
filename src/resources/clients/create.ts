import { defineEndpoint, reply } from '../../http/endpoint.js';
import { mergeMetadata } from '../../schemas/input.js';
import { timestamp } from '../../schemas/new-records.js';
import { Client, CreateClientBody } from './schema.js';

export const createClient = defineEndpoint({
  operationId: 'createClient',
  method: 'POST',
  path: '/v1/clients',
  scope: 'clients:write',
  summary: 'Create a client',
  body: CreateClientBody,
  idempotent: true,
  success: { status: 201, schema: Client, description: 'The new client' },
  handle({ body, now, mint }) {
    const at = timestamp(now);
    const client: Client = {
      id: mint.id('client'),
      object: 'client',
      name: body.name,
      kind: body.kind,
      epa_id: body.epa_id ?? null,
      billing_email: body.billing_email ?? null,
      portal_enabled: body.portal_enabled ?? false,
      metadata: mergeMetadata({}, body.metadata),
      created_at: at,
      updated_at: at,
    };
    return reply(201, client);
  },
});
