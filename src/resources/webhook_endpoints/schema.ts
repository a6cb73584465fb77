import { z } from '@hono/zod-openapi';
import { deferred } from '../../schemas/deferred.js';
import { idSchema, Timestamp } from '../../schemas/common.js';
import { EVENT_TYPES } from '../events/types.js';
import { webhookUrlProblem } from './url.js';

export const WebhookEndpoint = deferred(() =>
  z
    .strictObject({
      id: idSchema('webhook_endpoint'),
      object: z.literal('webhook_endpoint'),
      // A record schema is read only by the OpenAPI document, so each rule is one it renders: z.url's
      // protocol option and `startsWith` render nothing there (and were checked nowhere).
      url: z.url().openapi({ pattern: '^https://' }),
      events: z.union([z.tuple([z.literal('*')]), z.array(z.enum(EVENT_TYPES)).min(1)]),
      // Shown only in the create response; null when listed or fetched.
      secret: z
        .string()
        .regex(/^whsec_/)
        .nullable(),
      enabled: z.boolean(),
      created_at: Timestamp(),
    })
    .openapi('WebhookEndpoint'),
);
export type WebhookEndpoint = z.infer<ReturnType<typeof WebhookEndpoint>>;

export const DeletedWebhookEndpoint = deferred(() =>
  z
    .strictObject({ id: idSchema('webhook_endpoint'), object: z.literal('webhook_endpoint'), deleted: z.literal(true) })
    .openapi('DeletedWebhookEndpoint'),
);

export const WebhookUrlInput = deferred(() =>
  z
    .string()
    .superRefine((url, ctx) => {
      const problem = webhookUrlProblem(url);
      if (problem !== null) ctx.addIssue({ code: 'custom', message: `${problem} (webhook URLs are public https URLs)` });
    })
    .openapi({ format: 'uri', example: 'https://example.com/webhooks/waste-ops' }),
);

/** One or more known event types without duplicates, or exactly ["*"] for all. */
export const WebhookEventsInput = deferred(() =>
  z
    .array(z.string({ error: 'must be an event type such as job.created, as a string' }), {
      error: 'must be an array of event types such as ["job.created"], or ["*"] for all',
    })
    .min(1, 'must list at least one event type, or be ["*"] for all')
    .superRefine((events, ctx) => {
      const known = new Set<string>(EVENT_TYPES);
      const seen = new Set<string>();
      events.forEach((type, index) => {
        if (type === '*') {
          if (events.length > 1) ctx.addIssue({ code: 'custom', path: [index], message: 'must be the only element when it is "*"' });
        } else if (!known.has(type)) {
          ctx.addIssue({
            code: 'custom',
            path: [index],
            message: `must be one of the ${EVENT_TYPES.length} event types (${EVENT_TYPES.join(', ')}), or "*" alone`,
            params: { choices: EVENT_TYPES },
          });
        } else if (seen.has(type)) {
          const first = events.indexOf(type);
          ctx.addIssue({ code: 'custom', path: [index], message: `must list each event type once; ${type} is also events[${first}]` });
        }
        seen.add(type);
      });
    })
    .openapi({ example: ['job.created', 'job.closed'] }),
);

export const CreateWebhookEndpointBody = deferred(() =>
  z.strictObject({ url: WebhookUrlInput(), events: WebhookEventsInput() }).openapi('CreateWebhookEndpointBody'),
);
