// Building blocks shared by the resource schemas. Every resource schema is built from these,
// so a format rule (an ID, a timestamp, an EPA ID) is written once. Each is built on first use
// (src/schemas/deferred.ts): `Timestamp()` is the schema.
import { z } from '@hono/zod-openapi';
import { US_STATE_CODES } from '../data/us-states.js';
import { deferred } from './deferred.js';

export const ID_PREFIXES = {
  client: 'cli',
  site: 'site',
  waste_profile: 'prof',
  job: 'job',
  container: 'cont',
  manifest: 'man',
  invoice: 'inv',
  webhook_endpoint: 'we',
  event: 'evt',
} as const;

export type ObjectType = keyof typeof ID_PREFIXES;

/** IDs the sandbox makes are `<prefix>_` and 14 base-62 characters, e.g. `job_4fK2q9XhT0aLmC`. */
export const ID_BODY_LENGTH = 14;

/** The object an ID prefix names, in words: "cli_" → "client", "prof_" → "waste profile". */
export function objectWords(object: ObjectType): string {
  return object.replace('_', ' ');
}

/**
 * An ID as the reference defines it: its prefix alone (reference, "Conventions"; docs/behaviour.md,
 * "IDs"). Any string with the prefix is an ID to look up, so an ID of another
 * length or alphabet is a 404 from the lookup, never a 400 from here; only a wrong prefix is.
 */
export function idSchema(object: ObjectType) {
  const prefix = `${ID_PREFIXES[object]}_`;
  const rule = `must be the ID of a ${objectWords(object)}, which begins with ${prefix}`;
  // The schema's error words every issue of it: a value that is no string, and one without the prefix.
  return z
    .string({ error: rule })
    .startsWith(prefix)
    .openapi({ example: `${prefix}00000000000000`, description: `ID with prefix ${prefix}`, pattern: `^${prefix}` });
}

/** ISO 8601 in UTC to the second, as every timestamp of the reference (`2025-06-02T15:04:05Z`). */
export const Timestamp = deferred(() => {
  const schema = z.iso.datetime({ precision: 0 });
  // The document shows the rule itself (zod's own pattern: whole seconds, Z), not only `date-time`,
  // which would allow fractions and offsets.
  return schema.openapi({ example: '2025-06-02T15:04:05Z', pattern: schema._zod.pattern.source });
});

/** YYYY-MM-DD, a real calendar date. */
export const CalendarDate = deferred(() => z.iso.date().openapi({ example: '2025-06-02' }));

/** HH:MM from 00:00 to 23:59. */
export const LocalTime = deferred(() =>
  z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time as HH:MM between 00:00 and 23:59')
    .openapi({ example: '08:00' }),
);

/**
 * EPA ID: a real US state or territory postal code, one letter, nine digits, e.g. TXD008123168.
 */
export const EpaId = deferred(() =>
  z
    .string()
    .refine(
      (value) => /^[A-Z]{2}[A-Z]\d{9}$/.test(value) && US_STATE_CODES.has(value.slice(0, 2)),
      'must be an EPA ID: a US state or territory code, one letter and nine digits (e.g. TXD008123168)',
    )
    .openapi({ example: 'TXD008123168' }),
);

export const METADATA_MAX_PAIRS = 20;
export const METADATA_KEY_MAX = 40;
export const METADATA_VALUE_MAX = 500;

/** Metadata as returned: the caller's own key-value pairs. */
export const Metadata = deferred(() =>
  z.record(z.string(), z.string()).openapi({ description: "Up to 20 key-value pairs of the caller's own; stored, never interpreted" }),
);

export const Address = deferred(() =>
  z
    .strictObject({
      line1: z.string(),
      line2: z.string().nullable(),
      city: z.string(),
      state: z.string(),
      postal_code: z.string(),
    })
    .openapi('Address'),
);

/** The list envelope around `data` records of one type. */
export function listSchema<T extends z.ZodType>(item: T, name: string) {
  return z
    .strictObject({
      object: z.literal('list'),
      data: z.array(item),
      has_more: z.boolean(),
      next_cursor: z.string().nullable(),
    })
    .openapi(name);
}
