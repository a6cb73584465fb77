import { listEndpoint } from '../endpoints.js';
import { WebhookEndpoint } from './schema.js';

export const listWebhookEndpoints = listEndpoint({
  operationId: 'listWebhookEndpoints',
  collection: 'webhook_endpoints',
  object: 'webhook_endpoint',
  scope: 'webhooks:read',
  summary: 'List webhook endpoints (secret null)',
  item: WebhookEndpoint,
  listName: 'WebhookEndpointList',
  match: () => undefined,
});
