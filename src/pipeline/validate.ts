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
    // Most reads carry no query: skip the parse. Every parameter of a list is optional, with no
    // default (a missing limit is the handler's), so an empty query would parse to {} anyway.
    const query = rawQuery === null ? {} : parseOrThrow(endpoint.query?.() ?? EmptyQuery(), rawQuery);
    // The endpoint is the context: its readonlyFields, if any, get a 400 saying they cannot be changed.
    const body = endpoint.body === undefined ? undefined : parseOrThrow(endpoint.body(), c.get('body'), endpoint);
    c.set('input', { query, body });
    return next();
  };
}
