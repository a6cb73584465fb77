import { z } from '@hono/zod-openapi';
import { deferred } from '../../schemas/deferred.js';
import { EpaId, idSchema, Timestamp } from '../../schemas/common.js';
import units from '../../../fixtures/units-of-measure.json' with { type: 'json' };

export const MANIFEST_STATUSES = ['draft', 'ready_for_signature', 'submitted', 'signed', 'corrected'] as const;
export const SUBMISSION_TYPES = ['FullElectronic', 'Hybrid', 'DataImage5Copy', 'Image'] as const;
/** e-Manifest unit-of-measure codes (fixtures/units-of-measure.json). */
export const UNIT_CODES = units.map((unit) => unit.code) as [string, ...string[]];

export const ManifestParty = deferred(() => z.strictObject({ name: z.string(), epa_id: EpaId() }).openapi('ManifestParty'));

export const ManifestLine = deferred(() =>
  z
    .strictObject({
      profile: idSchema('waste_profile'),
      dot_description: z.string(),
      waste_codes: z.array(z.string()),
      containers: z.int().positive(),
      quantity: z.number().nonnegative(),
      unit: z.enum(UNIT_CODES),
    })
    .openapi('ManifestLine'),
);
export type ManifestLine = z.infer<ReturnType<typeof ManifestLine>>;

export const Manifest = deferred(() =>
  z
    .strictObject({
      id: idSchema('manifest'),
      object: z.literal('manifest'),
      job: idSchema('job'),
      manifest_tracking_number: z
        .string()
        .regex(/^\d{9}[A-Z]{3}$/)
        .nullable(),
      status: z.enum(MANIFEST_STATUSES),
      submission_type: z.enum(SUBMISSION_TYPES),
      generator: ManifestParty(),
      designated_facility: ManifestParty(),
      lines: z.array(ManifestLine()),
      created_at: Timestamp(),
      updated_at: Timestamp(),
    })
    .openapi('Manifest'),
);
export type Manifest = z.infer<ReturnType<typeof Manifest>>;

export const CreateManifestBody = deferred(() =>
  z
    .strictObject({
      job: idSchema('job'),
      // The receiving facility's EPA ID; it must be in the facility directory.
      designated_facility: EpaId(),
      submission_type: z.enum(SUBMISSION_TYPES).optional(),
    })
    .openapi('CreateManifestBody'),
);
