// Pieces of request bodies shared by the write endpoints: required text and metadata
// (docs/behaviour.md, "Creates" and "Limits beyond the reference").
import { z } from '@hono/zod-openapi';
import { ApiError } from '../errors.js';
import { quoted } from '../http/messages.js';
import { METADATA_KEY_MAX, METADATA_MAX_PAIRS, METADATA_VALUE_MAX } from './common.js';
import { deferred } from './deferred.js';

/** A required text field: present, a string, not blank. No length limit: the reference sets none. */
export function text() {
  return z.string().refine((value) => value.trim().length > 0, 'must not be empty or only spaces');
}

/** Metadata as sent: pairs in the order given; `null` values only where a PATCH may remove keys. */
export type MetadataPairs = [key: string, value: string | null][];

/**
 * An issue of metadata's own rules: src/http/messages.ts shows its message (a rule that begins with
 * "must") as it is, and `received`, when given, as what was sent.
 */
function issue(message: string, path: PropertyKey[] = [], received?: string) {
  return { code: 'custom' as const, path, message, params: { received } };
}

/**
 * Metadata is read by hand rather than with z.record: zod drops a `__proto__` key, and the
 * sandbox must store such keys as plain keys (metadata keys are data), never touching a prototype.
 */
function metadataInput(allowNull: boolean) {
  return z
    .unknown()
    .transform((value, ctx): MetadataPairs => {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        ctx.addIssue(issue('must be an object of string values'));
        return z.NEVER;
      }
      const pairs = Object.entries(value);
      if (pairs.length > METADATA_MAX_PAIRS) {
        ctx.addIssue(issue(`must have at most ${METADATA_MAX_PAIRS} key-value pairs`, [], `${pairs.length} pairs`));
        return z.NEVER;
      }
      for (const [key, item] of pairs) {
        if (key.length < 1 || key.length > METADATA_KEY_MAX) {
          // An empty or very long key is reported on metadata itself: a param of "metadata." or
          // of a 10,000-character key would help nobody.
          ctx.addIssue(
            issue(
              `must have keys of 1 to ${METADATA_KEY_MAX} characters`,
              key === '' || key.length > 100 ? [] : [key],
              key === '' ? 'a key that is an empty string' : `the key ${quoted(key)} (${key.length} characters)`,
            ),
          );
        } else if (item === null && allowNull) {
        } else if (typeof item !== 'string') {
          ctx.addIssue(issue(allowNull ? 'must be a string, or null to remove the key' : 'must be a string', [key]));
        } else if (item.length > METADATA_VALUE_MAX) {
          ctx.addIssue(issue(`must be at most ${METADATA_VALUE_MAX} characters`, [key]));
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

export const MetadataCreate = deferred(() => metadataInput(false));
export const MetadataPatch = deferred(() => metadataInput(true));

/**
 * Applies metadata pairs over a record's metadata: a PATCH merges per key, `null` removes it; a
 * key keeps its place, a new one comes last. The result is made by Object.fromEntries, which
 * defines each key as a plain own key, so `__proto__` touches no prototype. The limit of 20 pairs
 * holds for the merged result too.
 */
export function mergeMetadata(current: Readonly<Record<string, string>>, pairs: MetadataPairs | undefined): Record<string, string> {
  const merged = new Map(Object.entries(current));
  for (const [key, value] of pairs ?? []) {
    if (value === null) merged.delete(key);
    else merged.set(key, value);
  }
  if (merged.size > METADATA_MAX_PAIRS) {
    throw new ApiError('parameter_invalid', {
      param: 'metadata',
      message: `Invalid metadata: must have at most ${METADATA_MAX_PAIRS} key-value pairs once merged with the record's own; the result would have ${merged.size}.`,
    });
  }
  return Object.fromEntries(merged);
}
