import { z } from '@hono/zod-openapi';
import { deferred } from '../../schemas/deferred.js';
import { idSchema, Timestamp } from '../../schemas/common.js';
import { Container } from '../containers/schema.js';
import { Invoice } from '../invoices/schema.js';
import { Job } from '../jobs/schema.js';
import { Manifest } from '../manifests/schema.js';
import { WasteProfile } from '../waste_profiles/schema.js';
import { EVENT_TYPES } from './types.js';

export const Event = deferred(() =>
  z
    .strictObject({
      id: idSchema('event'),
      object: z.literal('event'),
      type: z.enum(EVENT_TYPES),
      data: z.strictObject({ object: z.union([Job(), Container(), Manifest(), WasteProfile(), Invoice()]) }),
      created_at: Timestamp(),
    })
    .openapi('Event'),
);
export type Event = z.infer<ReturnType<typeof Event>>;
