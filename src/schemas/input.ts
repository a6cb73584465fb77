// Pieces of request bodies shared by the write endpoints (SANDBOX.md, "Validation decisions").
import { z } from '@hono/zod-openapi';
import { ApiError } from '../errors.js';
import { METADATA_KEY_MAX, METADATA_MAX_PAIRS, METADATA_VALUE_MAX } from './common.js';

/** A required text field: present, a string, not blank. */
export function text(max = 500) {
  return z
    .string()
    .refine((value) => value.trim().length > 0, 'must not be empty')
    .refine((value) => value.length <= max, `must be at most ${max} characters`);
}

/** Metadata as sent: pairs in the order given; `null` values only where a PATCH may remove keys. */
export type MetadataPairs = [key: string, value: string | null][];

/**
 * Metadata is read by hand rather than with z.record: zod drops a `__proto__` key, and the
 * sandbox must store such keys as plain keys (SANDBOX.md), never touching a prototype.
 */
function metadataInput(allowNull: boolean) {
  return z
    .unknown()
    .transform((value, ctx): MetadataPairs => {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        ctx.addIssue({ code: 'custom', message: 'must be an object of string values' });
        return z.NEVER;
      }
      const pairs = Object.entries(value);
      if (pairs.length > METADATA_MAX_PAIRS) {
        ctx.addIssue({ code: 'custom', message: `must have at most ${METADATA_MAX_PAIRS} key-value pairs` });
        return z.NEVER;
      }
      for (const [key, item] of pairs) {
        if (key.length < 1 || key.length > METADATA_KEY_MAX) {
          ctx.addIssue({ code: 'custom', path: [key], message: `keys must be 1 to ${METADATA_KEY_MAX} characters` });
        } else if (item === null && allowNull) {
        } else if (typeof item !== 'string') {
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: allowNull ? 'must be a string, or null to remove the key' : 'must be a string',
          });
        } else if (item.length > METADATA_VALUE_MAX) {
          ctx.addIssue({ code: 'custom', path: [key], message: `values must be at most ${METADATA_VALUE_MAX} characters` });
        }
      }
      return pairs as MetadataPairs;
    })
    .openapi({
      type: 'object',
      additionalProperties: allowNull
        ? { type: ['string', 'null'], maxLength: METADATA_VALUE_MAX }
        : { type: 'string', maxLength: METADATA_VALUE_MAX },
      maxProperties: METADATA_MAX_PAIRS,
    });
}

export const MetadataCreate = metadataInput(false);
export const MetadataPatch = metadataInput(true);

function defineKey(target: Record<string, string>, key: string, value: string): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Applies metadata pairs over a record's metadata: per key, `null` removes (SANDBOX.md). The
 * result is built with defineProperty so `__proto__` is a plain key. The limit of 20 pairs holds
 * for the merged result too.
 */
export function mergeMetadata(current: Readonly<Record<string, string>>, pairs: MetadataPairs | undefined): Record<string, string> {
  const merged: Record<string, string> = {};
  const removed = new Set(pairs?.filter(([, value]) => value === null).map(([key]) => key));
  for (const [key, value] of Object.entries(current)) if (!removed.has(key)) defineKey(merged, key, value);
  for (const [key, value] of pairs ?? []) if (value !== null) defineKey(merged, key, value);
  if (Object.keys(merged).length > METADATA_MAX_PAIRS) {
    throw new ApiError('parameter_invalid', {
      param: 'metadata',
      message: `Invalid metadata: the record would have more than ${METADATA_MAX_PAIRS} key-value pairs.`,
    });
  }
  return merged;
}
