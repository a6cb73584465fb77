import { z } from '@hono/zod-openapi';
import { deferred } from '../../schemas/deferred.js';
import { idSchema, Timestamp } from '../../schemas/common.js';

export const CONTAINER_STATUSES = ['open', 'full', 'received', 'consolidated', 'shipped'] as const;
export type ContainerStatus = (typeof CONTAINER_STATUSES)[number];
export const STORAGE_STATUSES = ['within_limit', 'approaching_limit', 'at_limit'] as const;

export const Container = deferred(() =>
  z
    .strictObject({
      id: idSchema('container'),
      object: z.literal('container'),
      job: idSchema('job'),
      profile: idSchema('waste_profile').nullable(),
      kind: z.string(),
      status: z.enum(CONTAINER_STATUSES),
      weight_lb: z.int().nonnegative(),
      storage_status: z.enum(STORAGE_STATUSES).nullable(),
      received_at: Timestamp().nullable(),
      created_at: Timestamp(),
    })
    .openapi('Container'),
);
export type Container = z.infer<ReturnType<typeof Container>>;

export const UpdateContainerBody = deferred(() =>
  z
    .strictObject({
      status: z.enum(CONTAINER_STATUSES).optional(),
      weight_lb: z.int().nonnegative('must be a whole number of pounds, 0 or more').optional(),
    })
    .openapi('UpdateContainerBody'),
);
