import { z } from '@hono/zod-openapi';
import { deferred } from '../../schemas/deferred.js';
import { US_STATE_CODES } from '../../data/us-states.js';
import { Address, EpaId, idSchema, Metadata, Timestamp } from '../../schemas/common.js';
import { MetadataCreate, MetadataPatch, text } from '../../schemas/input.js';

export const Site = deferred(() =>
  z
    .strictObject({
      id: idSchema('site'),
      object: z.literal('site'),
      client: idSchema('client'),
      name: z.string(),
      address: Address(),
      epa_id: EpaId().nullable(),
      access_notes: z.string(),
      metadata: Metadata(),
      // The reference gives sites no updated_at.
      created_at: Timestamp(),
    })
    .openapi('Site'),
);
export type Site = z.infer<ReturnType<typeof Site>>;

/** A US address as sent: state is a postal code, postal_code a ZIP or ZIP+4. */
export const AddressInput = deferred(() =>
  z
    .strictObject({
      line1: text(),
      line2: z.string().nullable().optional(),
      city: text(),
      state: z.string().refine((value) => US_STATE_CODES.has(value), {
        message: 'must be a US state or territory postal code such as TX',
        params: { choices: [...US_STATE_CODES] },
      }),
      postal_code: z.string().regex(/^\d{5}(-\d{4})?$/, 'must be a ZIP code (12345 or 12345-6789)'),
    })
    .openapi('AddressInput'),
);

export const CreateSiteBody = deferred(() =>
  z
    .strictObject({
      client: idSchema('client'),
      name: text(),
      address: AddressInput(),
      access_notes: z.string().optional(),
      metadata: MetadataCreate().optional(),
    })
    .openapi('CreateSiteBody'),
);

export const UpdateSiteBody = deferred(() =>
  z
    .strictObject({
      name: text().optional(),
      access_notes: z.string().optional(),
      metadata: MetadataPatch().optional(),
    })
    .openapi('UpdateSiteBody'),
);
