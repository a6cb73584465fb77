import { z } from '@hono/zod-openapi';
import { isKnownWasteCode } from '../../data/waste-codes.js';
import { idSchema, Timestamp } from '../../schemas/common.js';
import { text } from '../../schemas/input.js';

export const PROFILE_STATUSES = ['draft', 'submitted', 'approved', 'expired'] as const;

export const WasteProfile = z
  .strictObject({
    id: idSchema('waste_profile'),
    object: z.literal('waste_profile'),
    client: idSchema('client'),
    name: z.string(),
    waste_codes: z.array(z.string()),
    dot_description: z.string(),
    status: z.enum(PROFILE_STATUSES),
    approved_by: z.string().nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi('WasteProfile');
export type WasteProfile = z.infer<typeof WasteProfile>;

/**
 * Waste codes as sent: one or more, each in the code library (fixtures/waste-codes.json), no
 * code twice. An unknown code is a 400 on `waste_codes[i]` naming it (SANDBOX.md, "Errors").
 */
export const WasteCodesInput = z
  .array(z.string(), { error: 'must be an array of waste codes' })
  .min(1, 'must list at least one waste code')
  .max(50, 'must list at most 50 waste codes')
  .superRefine((codes, ctx) => {
    const seen = new Set<string>();
    codes.forEach((code, index) => {
      if (!isKnownWasteCode(code)) {
        ctx.addIssue({
          code: 'custom',
          path: [index],
          message: `unknown waste code ${JSON.stringify(code)}; codes come from the federal RCRA D, F, K, P and U lists and the CA, TX and WA state lists`,
        });
      } else if (seen.has(code)) {
        ctx.addIssue({ code: 'custom', path: [index], message: `waste code ${code} is listed twice` });
      }
      seen.add(code);
    });
  })
  .openapi({ example: ['D001', 'F005'] });

export const CreateWasteProfileBody = z
  .strictObject({
    client: idSchema('client'),
    name: text(200),
    waste_codes: WasteCodesInput,
    dot_description: z.string().max(500).optional(),
  })
  .openapi('CreateWasteProfileBody');

export const UpdateWasteProfileBody = z
  .strictObject({
    name: text(200).optional(),
    // Replaces the whole list (reference, PATCH /v1/waste_profiles/{id}).
    waste_codes: WasteCodesInput.optional(),
    dot_description: z.string().max(500).optional(),
  })
  .openapi('UpdateWasteProfileBody');
