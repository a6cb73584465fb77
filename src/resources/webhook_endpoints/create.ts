import { defineEndpoint, reply } from '../../http/endpoint.js';
import { timestamp } from '../../schemas/new-records.js';
import { CreateWebhookEndpointBody, WebhookEndpoint } from './schema.js';

export const createWebhookEndpoint = defineEndpoint({
  operationId: 'createWebhookEndpoint',
  method: 'POST',
  path: '/v1/webhook_endpoints',
  scope: 'webhooks:write',
  summary: 'Register a webhook endpoint; its secret is shown only in this response',
  body: CreateWebhookEndpointBody,
  idempotent: true,
  success: { status: 201, schema: WebhookEndpoint, description: 'The new webhook endpoint, secret included' },
  handle({ body, now, mint }) {
    const endpoint: WebhookEndpoint = {
      id: mint.id('webhook_endpoint'),
      object: 'webhook_endpoint',
      url: body.url,
      events: body.events as WebhookEndpoint['events'],
      secret: mint.webhookSecret(),
      // A created endpoint is enabled (the reference leaves it open).
      enabled: true,
      created_at: timestamp(now),
    };
    return reply(201, endpoint);
  },
});
