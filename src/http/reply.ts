import type { Context } from 'hono';
import { ApiError, errorBody } from '../errors.js';
import type { SandboxEnv } from './env.js';

/** Headers a browser may read across origins (SANDBOX.md, "Browsers and tools"). */
export const EXPOSED_HEADERS = 'Request-Id, RateLimit-Policy, Retry-After, Idempotent-Replayed';

/**
 * The headers of every response, errors and preflights included: the request ID, the rate-limit
 * policy (reference, "Limits") and CORS for every origin. Built once per app.
 */
export function baseHeaders(rateLimitPolicy: string): Readonly<Record<string, string>> {
  return Object.freeze({
    'RateLimit-Policy': rateLimitPolicy,
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Expose-Headers': EXPOSED_HEADERS,
  });
}

export type Responder = (
  c: Context<SandboxEnv>,
  status: number,
  json: string | Uint8Array<ArrayBuffer>,
  extraHeaders?: Record<string, string>,
) => Response;

/** The one place responses are made, so no response can miss the common headers. */
export function responder(headers: Readonly<Record<string, string>>): Responder {
  return (c, status, json, extraHeaders) =>
    new Response(json, {
      status,
      headers: {
        ...headers,
        'Content-Type': 'application/json',
        'Request-Id': c.get('requestId'),
        ...extraHeaders,
      },
    });
}

export function errorResponse(respond: Responder, c: Context<SandboxEnv>, error: ApiError): Response {
  return respond(c, error.status, errorBody(error, c.get('requestId')), error.headers);
}
