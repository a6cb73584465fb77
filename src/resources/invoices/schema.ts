import { z } from '@hono/zod-openapi';
import { deferred } from '../../schemas/deferred.js';
import { CalendarDate, idSchema, Timestamp } from '../../schemas/common.js';

export const INVOICE_STATUSES = ['draft', 'open', 'paid', 'void'] as const;

export const Invoice = deferred(() =>
  z
    .strictObject({
      id: idSchema('invoice'),
      object: z.literal('invoice'),
      number: z.string(),
      client: idSchema('client'),
      jobs: z.array(idSchema('job')),
      status: z.enum(INVOICE_STATUSES),
      currency: z.string().regex(/^[a-z]{3}$/),
      amount_due: z.int().nonnegative(),
      amount_paid: z.int().nonnegative(),
      due_date: CalendarDate(),
      created_at: Timestamp(),
    })
    .openapi('Invoice'),
);
export type Invoice = z.infer<ReturnType<typeof Invoice>>;
