// Which errors an operation can answer, derived from its definition and the order of checks
// (docs/behaviour.md): every operation can meet auth, scope, validation, the rate limit and a simulated
// failure; a path ID can be missing; a body can be too large; an idempotent POST can conflict;
// the handler adds its own (a missing body reference, a state rule) through handlerErrors.
import { ERROR_CODES, type ErrorCode } from '../errors.js';
import type { Endpoint } from '../http/endpoint.js';

export interface ErrorCase {
  code: ErrorCode;
  when: string;
}

/** Error statuses of the operation, ascending, each with the cases that give it. */
export function errorCasesOf(endpoint: Endpoint): Map<number, ErrorCase[]> {
  const cases: { status: number; code: ErrorCode; when: string }[] = [];
  const add = (code: ErrorCode, when: string, status: number = ERROR_CODES[code].status) => cases.push({ status, code, when });

  // Only a body with a required field can miss one (an update takes any subset of its fields).
  if (endpoint.body?.()?.safeParse({}).success === false) add('parameter_missing', 'a required body field is missing');
  add(
    'parameter_invalid',
    endpoint.body !== undefined
      ? 'a body field has a wrong type or value, is unknown or cannot be changed here; the body is not a JSON object; Sandbox-Simulate or Sandbox-Clock has a wrong value'
      : 'a query parameter is unknown or has a wrong value; Sandbox-Simulate or Sandbox-Clock has a wrong value',
  );
  add('api_key_missing', 'no Authorization header, or Bearer without a key');
  add('api_key_invalid', 'a key the sandbox did not issue, a live key or a revoked key');
  add('scope_missing', `the key lacks the ${endpoint.scope} scope`);
  if (endpoint.pathId !== undefined) add('resource_missing', `no ${endpoint.pathId} with that ID in the key's account`);
  if (endpoint.idempotent)
    add('idempotency_conflict', 'the Idempotency-Key was used with another request, or that request is still running');
  for (const handlerError of endpoint.handlerErrors ?? []) add(handlerError.code, handlerError.when);
  if (endpoint.body !== undefined) add('parameter_invalid', 'the body is larger than 1 MiB', 413);
  add('rate_limited', 'over the rate limit, or Sandbox-Simulate: rate_limited; wait the seconds of Retry-After');
  add('api_error', 'a failure on the sandbox side, or Sandbox-Simulate: api_error; safe to retry');

  const byStatus = new Map<number, ErrorCase[]>();
  for (const { status, code, when } of cases.sort((a, b) => a.status - b.status)) {
    const list = byStatus.get(status) ?? [];
    list.push({ code, when });
    byStatus.set(status, list);
  }
  return byStatus;
}
