// Step 2 of the order of checks, after the key: a path the reference does not have is 404
// `resource_missing` ("Unrecognized request URL (GET /v1/…)", SANDBOX.md "Errors"); a path it has
// with a method it does not is 405 `method_not_allowed`, with an Allow header.
import type { Context } from 'hono';
import { ApiError } from '../errors.js';
import type { PathMatcher } from '../http/endpoint.js';
import type { SandboxEnv } from '../http/env.js';
import { errorResponse, type Responder } from '../http/reply.js';

export function unmatchedRoute(respond: Responder, paths: PathMatcher) {
  return (c: Context<SandboxEnv>): Response => {
    const allowed = paths.allowed(c.req.path);
    const error =
      allowed.length > 0
        ? new ApiError('method_not_allowed', {
            message: `${c.req.method} is not allowed on ${shortPath(c.req.path)}. Allowed: ${allowed.join(', ')}.`,
            headers: { Allow: allowed.join(', ') },
          })
        : new ApiError('resource_missing', { message: `Unrecognized request URL (${c.req.method} ${shortPath(c.req.path)}).` });
    return errorResponse(respond, c, error);
  };
}

/** A path as an error message repeats it: whole up to 200 characters (a URL may be 16 KiB). */
function shortPath(path: string): string {
  return path.length <= 200 ? path : `${path.slice(0, 200)}…`;
}
