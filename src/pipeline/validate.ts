// Step 5 of the order of checks: the query and the body against the endpoint's schemas (400
// `parameter_missing` / `parameter_invalid`, naming the field: src/http/validation.ts). An
// endpoint's schemas are built by its first request (src/schemas/deferred.ts).
import type { Endpoint } from '../http/endpoint.js';
import { parseOrThrow } from '../http/validation.js';
import { EmptyQuery } from '../schemas/query.js';
import type { Step } from './step.js';

export function validate(endpoint: Endpoint): Step {
  return (c, next) => {
    const rawQuery = c.get('query');
    // Most reads carry no query: skip the parse rather than validate an empty object.
    const query = rawQuery === null && endpoint.query === undefined ? {} : parseOrThrow(endpoint.query?.() ?? EmptyQuery(), rawQuery ?? {});
    const body =
      endpoint.body === undefined
        ? undefined
        : parseOrThrow(endpoint.body(), c.get('body'), { readonlyFields: endpoint.readonlyFields ?? [] });
    c.set('input', { query, body });
    return next();
  };
}
