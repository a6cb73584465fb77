// The reference's "Limits" and "Errors", transcribed; the error types are SANDBOX.md's ("Errors"),
// since the reference shows only parameter_missing's.

export const PAGE_SIZE = { min: 1, max: 100, default: 25 } as const;
export const METADATA_PAIRS = 20;
/** A delivery whose t is this many seconds old, or more, is rejected. */
export const SIGNATURE_AGE_SECONDS = 300;

/** Every error code with its status, and the type the sandbox gives it. */
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

/** The members of `error` in every error body; param only when a field is at fault. */
export const ERROR_FIELDS = ['type', 'code', 'message', 'param', 'doc_url', 'request_id'] as const;
