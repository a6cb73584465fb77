import type { Context } from 'hono';
import { type ApiError, errorBody } from '../errors.js';
import type { MintOf } from './clock.js';
import type { SandboxEnv } from './env.js';
import { requestId } from './request-id.js';

/** Headers a browser may read across origins (docs/behaviour.md, "CORS"). */
export const EXPOSED_HEADERS = 'Request-Id, RateLimit-Policy, Retry-After, Idempotent-Replayed, Sandbox-Fault';

/** On the answer of a fault or a delay: the items of Sandbox-Simulate in effect (src/faults). */
export const FAULT_HEADER = 'Sandbox-Fault';

/** CORS for every origin: sent when the request comes from a browser, which always sends Origin. */
export const CORS_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': EXPOSED_HEADERS,
});

export interface Responder {
  (c: Context<SandboxEnv>, status: number, json: string | Uint8Array<ArrayBuffer>, extraHeaders?: Record<string, string>): Response;
  /** The request's ID, derived from the request when its clock is pinned. */
  requestId(c: Context<SandboxEnv>): string;
}

/**
 * The one place responses are made, so no response can miss the common headers: the request
 * ID and the rate-limit policy on every one (reference, "Limits"), CORS on browsers' requests.
 * Requests without Origin (servers, CI, curl) skip the two CORS headers: on the hot path every
 * header costs, and only browsers read them.
 */
export function responder(rateLimitPolicy: string, mintOf: MintOf): Responder {
  const plain = Object.freeze({ 'Content-Type': 'application/json', 'RateLimit-Policy': rateLimitPolicy });
  const browser = Object.freeze({ ...plain, ...CORS_HEADERS });
  // The mint makes the ID: with a pinned clock it derives it (src/http/request-id.ts). A request's
  // mint is made once and kept, so asking again costs a lookup.
  const idOf = (c: Context<SandboxEnv>) => requestId(c, mintOf(c));
  const respond = (
    c: Context<SandboxEnv>,
    status: number,
    json: string | Uint8Array<ArrayBuffer>,
    extraHeaders?: Record<string, string>,
  ) => {
    const headers: Record<string, string> = {
      ...(c.req.header('Origin') === undefined ? plain : browser),
      'Request-Id': idOf(c),
      ...extraHeaders,
    };
    const fault = c.get('fault')?.header;
    if (fault !== undefined) headers[FAULT_HEADER] = fault;
    return new Response(json, { status, headers });
  };
  return Object.assign(respond, { requestId: idOf });
}

export function errorResponse(respond: Responder, c: Context<SandboxEnv>, error: ApiError): Response {
  return respond(c, error.status, errorBody(error, respond.requestId(c)), error.headers);
}
