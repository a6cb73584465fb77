import { defineEndpoint, reply } from '../../http/endpoint.js';
import { findRecord } from '../endpoints.js';
import { DeletedWebhookEndpoint } from './schema.js';

export const deleteWebhookEndpoint = defineEndpoint({
  operationId: 'deleteWebhookEndpoint',
  method: 'DELETE',
  path: '/v1/webhook_endpoints/{id}',
  pathId: 'webhook_endpoint',
  scope: 'webhooks:write',
  summary: 'Delete a webhook endpoint; deliveries stop',
  success: { status: 200, schema: DeletedWebhookEndpoint, description: 'The deleted endpoint' },
  handle({ account, id }) {
    const endpoint = findRecord(account, 'webhook_endpoints', 'webhook_endpoint', id);
    return reply(200, { id: endpoint.id, object: 'webhook_endpoint', deleted: true });
  },
});
