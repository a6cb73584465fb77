// Query parameters of the list endpoints (reference, "Endpoints" and "Limits"). Query values
// arrive as text, so each parameter is parsed from a string.
import { z } from '@hono/zod-openapi';
import { CalendarDate, idSchema, type ObjectType } from './common.js';
import { deferred } from './deferred.js';

/** Endpoints without query parameters still refuse unknown ones: a 400 naming the parameter. */
export const EmptyQuery = deferred(() => z.strictObject({}));

export const PAGE_SIZE_DEFAULT = 25;
export const PAGE_SIZE_MAX = 100;

export const Limit = deferred(() =>
  z
    .string()
    .regex(/^\d{1,6}$/, `must be an integer from 1 to ${PAGE_SIZE_MAX}`)
    .transform(Number)
    .pipe(
      z.int().min(1, `must be an integer from 1 to ${PAGE_SIZE_MAX}`).max(PAGE_SIZE_MAX, `must be an integer from 1 to ${PAGE_SIZE_MAX}`),
    )
    .openapi({ type: 'integer', minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_DEFAULT }),
);

/** An ID filter: any ID with the type's prefix; one not in the account simply matches nothing. */
export function idFilter(object: ObjectType) {
  return idSchema(object).optional();
}

export function enumFilter<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values).optional();
}

export const DateFilter = deferred(() => CalendarDate().optional());

/** limit, starting_after and the endpoint's own filters; nothing else. */
export function listQuery<S extends z.ZodRawShape>(filters: S) {
  return z.strictObject({
    limit: Limit().optional(),
    starting_after: z.string().optional(),
    ...filters,
  });
}
