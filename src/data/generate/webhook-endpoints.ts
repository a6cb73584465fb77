// Webhook endpoints as listed: the secret is shown only in the create response, so null here
// (reference, webhook_endpoint). URLs are on reserved example domains that look public.
import { EVENT_TYPES, type EventType } from '../../resources/events/types.js';
import type { WebhookEndpoint } from '../../resources/webhook_endpoints/schema.js';
import { DAY, formatTimestamp, NOW } from '../random.js';
import type { GeneratorContext } from './context.js';

interface EndpointTemplate {
  url: string;
  events: ['*'] | EventType[];
  enabled: boolean;
}

const TEMPLATES: readonly EndpointTemplate[] = [
  { url: 'https://hooks.ops-dashboard.example.com/waste-ops', events: ['*'], enabled: true },
  {
    url: 'https://erp.integrations.example.com/webhooks/waste-ops/jobs',
    events: ['job.created', 'job.scheduled', 'job.closed', 'staff.accepted'],
    enabled: true,
  },
  { url: 'https://billing.example.net/hooks/invoices', events: ['invoice.sent', 'invoice.paid'], enabled: true },
  {
    url: 'https://ehs-compliance.example.org/api/inbound/waste-ops',
    events: ['container.received', 'container.storage_status_changed', 'manifest.ready_for_signature', 'manifest.signed'],
    enabled: false,
  },
  { url: 'https://staging.client-portal.example.com/webhooks', events: ['*'], enabled: false },
  { url: 'https://hooks.lab-services.example.com/profiles', events: ['profile.approved', 'profile.expiring'], enabled: true },
];

/** Integrations beyond the named templates, so account A's list needs several pages (docs/sample-data.md: every list needs several pages). */
function extraTemplate(context: GeneratorContext, index: number): EndpointTemplate {
  const { random, faker } = context;
  const host = `${faker.internet.domainWord()}.${random.pick(['example.com', 'example.net', 'example.org'])}`;
  const path = random.pick(['/webhooks/waste-ops', '/hooks/waste', '/api/events/inbound', '/integrations/waste-ops']);
  const all = random.chance(0.3);
  return {
    url: `https://${host}${path}/${index}`,
    events: all ? ['*'] : random.sample(EVENT_TYPES, random.int(1, 4)),
    enabled: random.chance(0.85),
  };
}

export function generateWebhookEndpoints(context: GeneratorContext): WebhookEndpoint[] {
  const { random, id, plan } = context;
  // Account B gets its own mix: the catch-all and the profile hooks.
  const named = plan.name === 'A' ? TEMPLATES : TEMPLATES.filter((_, index) => index === 0 || index === 5);
  const templates = [...named];
  while (templates.length < plan.webhookEndpoints) templates.push(extraTemplate(context, templates.length));
  return templates.slice(0, plan.webhookEndpoints).map((template) => ({
    id: id('webhook_endpoint'),
    object: 'webhook_endpoint',
    url: template.url,
    events: template.events[0] === '*' ? ['*'] : (template.events.slice() as EventType[]),
    secret: null,
    enabled: template.enabled,
    created_at: formatTimestamp(random.int(plan.clientsUntil, NOW - 2 * DAY)),
  }));
}
