import { z } from '@hono/zod-openapi';
import { deferred } from '../../schemas/deferred.js';
import { isKnownWasteCode, WASTE_CODES } from '../../data/waste-codes.js';
import { idSchema, Timestamp } from '../../schemas/common.js';
import { text } from '../../schemas/input.js';

const WASTE_CODE_LIST = [...WASTE_CODES.keys()];

export const PROFILE_STATUSES = ['draft', 'submitted', 'approved', 'expired'] as const;

export const WasteProfile = deferred(() =>
  z
    .strictObject({
      id: idSchema('waste_profile'),
      object: z.literal('waste_profile'),
      client: idSchema('client'),
      name: z.string(),
      waste_codes: z.array(z.string()),
      dot_description: z.string(),
      status: z.enum(PROFILE_STATUSES),
      approved_by: z.string().nullable(),
      created_at: Timestamp(),
      updated_at: Timestamp(),
    })
    .openapi('WasteProfile'),
);
export type WasteProfile = z.infer<ReturnType<typeof WasteProfile>>;

/**
 * Waste codes as sent: one or more, each in the code library (fixtures/waste-codes.json), no
 * code twice. An unknown code is a 400 on `waste_codes[i]` naming it (docs/behaviour.md, "Errors").
 * No upper count: the reference sets none, and no code may repeat, so the library bounds it.
 */
export const WasteCodesInput = deferred(() =>
  z
    .array(z.string({ error: 'must be a waste code such as D001, as a string' }), {
      error: 'must be an array of waste codes such as ["D001", "F005"]',
    })
    .min(1, 'must list at least one waste code')
    .superRefine((codes, ctx) => {
      const seen = new Set<string>();
      codes.forEach((code, index) => {
        if (!isKnownWasteCode(code)) {
          ctx.addIssue({
            code: 'custom',
            path: [index],
            message: 'must be a waste code of the federal RCRA D, F, K, P or U lists or of the California, Texas or Washington state lists',
            params: { choices: WASTE_CODE_LIST },
          });
        } else if (seen.has(code)) {
          const first = codes.indexOf(code);
          ctx.addIssue({ code: 'custom', path: [index], message: `must list each waste code once; ${code} is also waste_codes[${first}]` });
        }
        seen.add(code);
      });
    })
    .openapi({ example: ['D001', 'F005'] }),
);

export const CreateWasteProfileBody = deferred(() =>
  z
    .strictObject({
      client: idSchema('client'),
      name: text(),
      waste_codes: WasteCodesInput(),
      dot_description: z.string().optional(),
    })
    .openapi('CreateWasteProfileBody'),
);

export const UpdateWasteProfileBody = deferred(() =>
  z
    .strictObject({
      name: text().optional(),
      // Replaces the whole list (reference, PATCH /v1/waste_profiles/{id}).
      waste_codes: WasteCodesInput().optional(),
      dot_description: z.string().optional(),
    })
    .openapi('UpdateWasteProfileBody'),
);
