// One event schema per event type (reference, "Event types"): the event object with that `type`
// and the record it carries as `data.object`. The document's `webhooks` use them
// (src/openapi/webhooks.ts), so a generator gives a receiver of `invoice.paid` an invoice, not the
// union of five records that GET /v1/events answers with (src/resources/events/schema.ts).
import { z } from '@hono/zod-openapi';
import { type Deferred, deferred } from '../../schemas/deferred.js';
import { idSchema, Timestamp } from '../../schemas/common.js';
import { Container } from '../containers/schema.js';
import { Invoice } from '../invoices/schema.js';
import { Job } from '../jobs/schema.js';
import { Manifest } from '../manifests/schema.js';
import { WasteProfile } from '../waste_profiles/schema.js';
import { EVENT_OBJECTS, EVENT_TYPES, type EventType } from './types.js';

const RECORDS = { job: Job, container: Container, manifest: Manifest, waste_profile: WasteProfile, invoice: Invoice } as const;

/** `job.created` → `JobCreatedEvent`: a component name a generated type can take as it is. */
export function eventSchemaName(type: EventType): string {
  const words = type.split(/[._]/).map((word) => word.charAt(0).toUpperCase() + word.slice(1));
  return `${words.join('')}Event`;
}

function eventOf(type: EventType) {
  return z
    .strictObject({
      id: idSchema('event'),
      object: z.literal('event'),
      type: z.literal(type),
      data: z.strictObject({ object: RECORDS[EVENT_OBJECTS[type]]() }),
      created_at: Timestamp(),
    })
    .openapi(eventSchemaName(type));
}

/** Built on first use, one object per type: the document names a component by the schema object it meets. */
export const EVENT_OF_TYPE = Object.fromEntries(EVENT_TYPES.map((type) => [type, deferred(() => eventOf(type))])) as {
  [T in EventType]: Deferred<ReturnType<typeof eventOf>>;
};
