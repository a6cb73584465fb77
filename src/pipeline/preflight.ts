// CORS preflights for every origin (docs/behaviour.md, "CORS"), answered before the key: a
// browser sends none with them. They carry RateLimit-Policy as every response does (SANDBOX.md,
// "Readings of the reference") and allow the sandbox's own headers, so "try it" can send them.
import type { Context } from 'hono';
import { CLOCK_HEADER } from '../http/clock.js';
import type { PathMatcher } from '../http/endpoint.js';
import type { SandboxEnv } from '../http/env.js';
import { CORS_HEADERS, type Responder } from '../http/reply.js';
import { SIMULATE_HEADER } from '../faults/simulate.js';

export function preflight(respond: Responder, policy: string, paths: PathMatcher) {
  return (c: Context<SandboxEnv>): Response => {
    const allowed = paths.allowed(c.req.path);
    return new Response(null, {
      status: 204,
      headers: {
        ...CORS_HEADERS,
        'RateLimit-Policy': policy,
        'Request-Id': respond.requestId(c),
        'Access-Control-Allow-Methods': (allowed.length > 0 ? allowed : ['GET', 'POST', 'PATCH', 'DELETE']).join(', '),
        'Access-Control-Allow-Headers': `Authorization, Content-Type, Idempotency-Key, ${SIMULATE_HEADER}, ${CLOCK_HEADER}`,
        'Access-Control-Max-Age': '600',
      },
    });
  };
}
