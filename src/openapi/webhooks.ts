// The document's `webhooks` (OpenAPI 3.1): what a receiver gets, one entry per event type of the
// reference ("Event types"), each a POST of the event object with that type and its record as
// `data.object` (src/resources/events/by-type.ts), signed in the `Service-Signature` header
// ("Signature"). Generators (openapi-typescript) turn them into typed events for receivers, and
// /docs shows them under "Webhooks". The whole scheme is written out in docs/webhook-signatures.md.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AccountStore } from '../data/store.js';
import { EVENT_OF_TYPE } from '../resources/events/by-type.js';
import { EVENT_OBJECTS, EVENT_TYPES, type EventType } from '../resources/events/types.js';
import { SIGNATURE_HEADER, SIGNATURE_TOLERANCE_SECONDS } from '../webhooks/signature.js';

/**
 * What the document's description says of the webhooks. Not a tag: Swagger UI lists webhooks in
 * a "Webhooks" section of their own, and a tag of that name would add a second, empty one.
 */
export const WEBHOOKS_DESCRIPTION = `**Webhooks** (the section of that name): what your webhook endpoint receives, a POST of an event object signed in the ${SIGNATURE_HEADER} header. Answer any 2xx quickly and do the work afterwards; refuse (any other status) a delivery that does not verify. Deliveries are retried, so the same event can arrive again: dedupe on its id. The signature, with test vectors and receivers to copy: docs/webhook-signatures.md in the sandbox's repository; \`waste-operations-sandbox check-receiver <url> --secret <whsec_…>\` tests a receiver against these rules.`;

/** The reference's "Event types" table, "Sent when". */
const SENT_WHEN: Record<EventType, string> = {
  'job.created': 'A job of any type is created',
  'job.scheduled': 'A job gets its date and is staffed',
  'job.closed': 'A job is closed out: containers counted, weights in',
  'staff.accepted': 'A crew member accepts an assignment on a job',
  'container.received': 'A container is checked in at a facility',
  'container.storage_status_changed': "A container's storage status moves, e.g. from within limit to approaching it",
  'manifest.ready_for_signature': "A manifest is complete and awaits the generator's signature",
  'manifest.signed': 'A manifest is signed; status, submission method and tracking number are on the record',
  'profile.approved': 'A waste profile is approved',
  'profile.expiring': 'A waste profile is nearing its renewal date',
  'invoice.sent': 'An invoice is sent to the client',
  'invoice.paid': 'An invoice is paid, in the client portal or recorded by staff',
};

/** The header exactly as deliveries carry it: one t, one v1 (src/webhooks/signature.ts signs so). */
export const SIGNATURE_PATTERN = '^t=\\d+,v1=[0-9a-f]{64}$';

const SIGNATURE_PARAMETER = {
  name: SIGNATURE_HEADER,
  in: 'header',
  required: true,
  description: `\`t=<unix seconds>,v1=<signature>\`: the signature is the lowercase hex HMAC-SHA256 of the text \`<t>.<raw body>\` (t, a dot, the exact body bytes), keyed by the endpoint's whole \`whsec_\` secret as UTF-8 bytes. Compare in constant time; refuse the delivery when no v1 matches, or when t is in the future or ${SIGNATURE_TOLERANCE_SECONDS} seconds or more old.`,
  schema: { type: 'string', pattern: SIGNATURE_PATTERN },
};

/** `container.storage_status_changed` → `containerStorageStatusChangedWebhook`. */
function operationIdOf(type: EventType): string {
  const [first = '', ...rest] = type.split(/[._]/);
  return `${first}${rest.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('')}Webhook`;
}

export function registerWebhooks(registry: OpenAPIHono['openAPIRegistry'], account: AccountStore): void {
  registry.registerComponent('parameters', SIGNATURE_HEADER, SIGNATURE_PARAMETER as never);
  for (const type of EVENT_TYPES) {
    // A real delivery of the running seed: the newest event of the type (every type has one).
    const example = account.events.records.find((event) => event.type === type);
    registry.registerWebhook({
      method: 'post',
      path: type,
      operationId: operationIdOf(type),
      // Swagger UI shows the type beside the summary: the summary says when, as the reference does.
      summary: SENT_WHEN[type],
      description: `The event object, its \`data.object\` the ${EVENT_OBJECTS[type].replace('_', ' ')} as it stands right after the change (reference, "Event types"). Verify ${SIGNATURE_HEADER} over the raw body before anything else.`,
      // Deliveries carry no API key: the signature authenticates them.
      security: [],
      parameters: [{ $ref: `#/components/parameters/${SIGNATURE_HEADER}` }],
      request: {
        body: {
          required: true,
          content: { 'application/json': { schema: EVENT_OF_TYPE[type](), ...(example === undefined ? {} : { example }) } },
        },
      },
      responses: {
        '2XX': {
          description: 'Received: answer any 2xx quickly, then do the work. A duplicate (an event id already seen) gets a 2xx too.',
        },
        '4XX': {
          description: `Refused: the signature does not verify (no v1 matches, no header, or t in the future or ${SIGNATURE_TOLERANCE_SECONDS} s or more old). A non-2xx answer, or none within 10 s, is retried with growing gaps.`,
        },
      },
    } as never);
  }
}
