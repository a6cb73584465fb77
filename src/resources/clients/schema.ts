import { z } from '@hono/zod-openapi';
import { deferred } from '../../schemas/deferred.js';
import { EpaId, idSchema, Metadata, Timestamp } from '../../schemas/common.js';
import { MetadataCreate, MetadataPatch, text } from '../../schemas/input.js';

export const CLIENT_KINDS = ['hhw_program', 'commercial_industrial', 'laboratory'] as const;

export const Client = deferred(() =>
  z
    .strictObject({
      id: idSchema('client'),
      object: z.literal('client'),
      name: z.string(),
      kind: z.enum(CLIENT_KINDS),
      epa_id: EpaId().nullable(),
      billing_email: z.email().nullable(),
      portal_enabled: z.boolean(),
      metadata: Metadata(),
      created_at: Timestamp(),
      updated_at: Timestamp(),
    })
    .openapi('Client'),
);
export type Client = z.infer<ReturnType<typeof Client>>;

export const CreateClientBody = deferred(() =>
  z
    .strictObject({
      name: text(),
      kind: z.enum(CLIENT_KINDS),
      epa_id: EpaId().nullable().optional(),
      billing_email: z.email().nullable().optional(),
      // Invites the client to the portal (reference, POST /v1/clients).
      portal_enabled: z.boolean().optional(),
      metadata: MetadataCreate().optional(),
    })
    .openapi('CreateClientBody'),
);

export const UpdateClientBody = deferred(() =>
  z
    .strictObject({
      name: text().optional(),
      billing_email: z.email().nullable().optional(),
      portal_enabled: z.boolean().optional(),
      metadata: MetadataPatch().optional(),
    })
    .openapi('UpdateClientBody'),
);
