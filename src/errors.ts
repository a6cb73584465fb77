// Every error the sandbox answers is made here: one code table, one class handlers throw,
// one function that writes the reference's error body (reference, "Errors"; docs/behaviour.md, "Errors").
import { quoted } from './http/messages.js';
import { ID_BODY_LENGTH, type ObjectType, objectWords } from './schemas/common.js';

export const ERROR_CODES = {
  parameter_missing: { status: 400, type: 'invalid_request_error' },
  parameter_invalid: { status: 400, type: 'invalid_request_error' },
  api_key_missing: { status: 401, type: 'authentication_error' },
  api_key_invalid: { status: 401, type: 'authentication_error' },
  scope_missing: { status: 403, type: 'permission_error' },
  resource_missing: { status: 404, type: 'invalid_request_error' },
  method_not_allowed: { status: 405, type: 'invalid_request_error' },
  idempotency_conflict: { status: 409, type: 'invalid_request_error' },
  state_invalid: { status: 422, type: 'invalid_request_error' },
  rate_limited: { status: 429, type: 'rate_limit_error' },
  api_error: { status: 500, type: 'api_error' },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;
export type ErrorStatus = (typeof ERROR_CODES)[ErrorCode]['status'] | HttpLayerStatus;
/** Statuses of the HTTP layer rather than the code table: 413 (body over 1 MiB); on Node, 408 and 431. */
export type HttpLayerStatus = 408 | 413 | 431;

export interface ApiErrorOptions {
  message: string;
  /** The field at fault: a dotted body path, a query parameter or a header name. */
  param?: string;
  /** Only for statuses the code table cannot give: 413 for a body over 1 MiB, 408/431 from Node's parser. */
  status?: HttpLayerStatus;
  headers?: Record<string, string>;
}

/** V8's Error (Node and workerd alike), whose stackTraceLimit not every type library declares. */
const V8Error = Error as ErrorConstructor & { stackTraceLimit?: number };

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: ErrorStatus;
  readonly param: string | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(code: ErrorCode, options: ApiErrorOptions) {
    // An ApiError is an answer, not a fault: nobody reads its stack, and capturing one was the
    // largest single cost of a 401. Real faults keep their stacks.
    const stackTraceLimit = V8Error.stackTraceLimit;
    V8Error.stackTraceLimit = 0;
    super(options.message);
    V8Error.stackTraceLimit = stackTraceLimit;
    this.code = code;
    this.status = options.status ?? ERROR_CODES[code].status;
    this.param = options.param;
    this.headers = options.headers;
  }
}

/**
 * The error body, members in the reference's order; `param` only when a field is at fault.
 * Written as a template (every error passes here, 401s by the thousand): only the message and
 * param, which may hold what a client sent, go through JSON.stringify.
 */
export function errorBody(error: ApiError, requestId: string): string {
  const param = error.param === undefined ? '' : `,"param":${JSON.stringify(error.param)}`;
  return `{"error":{"type":"${ERROR_CODES[error.code].type}","code":"${error.code}","message":${JSON.stringify(error.message)}${param},"doc_url":"/docs/errors#${error.code}","request_id":"${requestId}"}}`;
}

/** The objects a POST of the reference creates: the only ones whose IDs a client may have from a write here. */
const CREATED_BY_WRITES: ReadonlySet<ObjectType> = new Set(['client', 'site', 'waste_profile', 'job', 'manifest', 'webhook_endpoint']);
/** The shape of the IDs the sandbox makes: a prefix, then 14 base-62 characters (src/schemas/common.ts). */
const MADE_HERE = new RegExp(`^[a-z]+_[0-9A-Za-z]{${ID_BODY_LENGTH}}$`);

/** Shorthands for the errors most handlers throw. */
export function resourceMissing(object: ObjectType, id: string, param = 'id'): ApiError {
  const words = objectWords(object);
  const where = param === 'id' ? '' : `; ${param} must name a ${words} of the account your API key opens`;
  // An ID of the shape a create answers with, sent by the client (in the path, or in the field of
  // its type), may well come from a create here (SANDBOX.md, "Nothing kept"): the commonest
  // surprise of a new user, so the 404 says why (issue #35). An ID of the other account gets the
  // same words, so the answer tells nothing about it.
  const why =
    CREATED_BY_WRITES.has(object) && (param === 'id' || param === object) && MADE_HERE.test(id)
      ? ` If a create answered with it: the sandbox keeps nothing, so a ${words} created here is answered, then dropped, and never found later; use a sample ${words} (GET /v1/${object}s lists them).`
      : '';
  return new ApiError('resource_missing', { message: `No such ${words}: ${quoted(id)}${where}.${why}`, param });
}

export function stateInvalid(message: string): ApiError {
  return new ApiError('state_invalid', { message });
}
