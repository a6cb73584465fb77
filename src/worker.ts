// The Workers entry: the same app as Node (src/server.ts), with the Idempotency-Key store and
// the rate-limit counters in Durable Objects so every instance shares them (docs/workers.md).
// Configuration comes from the Worker's variables, named as in the README's "Configuration".
import { rateLimitPolicy } from './config.js';
import { ApiError, errorBody } from './errors.js';
import { CORS_HEADERS } from './http/reply.js';
import { newRequestId } from './clock/mint.js';
import { env } from 'cloudflare:workers';
import { appFor } from './worker/apps.js';
import type { WorkerEnv } from './worker/env.js';

export { IdempotencyObject } from './worker/idempotency-object.js';
export { RateLimitObject } from './worker/rate-limit-object.js';

// The app of the deployed configuration is built while the isolate starts (the global scope has
// its own time limit), so the first request pays only for itself: with the default seed's data
// prebuilt, building it generates nothing. A configuration that cannot be used is reported by
// the first request instead (configurationError below).
try {
  appFor(env as unknown as WorkerEnv);
} catch {}

export default {
  fetch(request, env, ctx) {
    let app: ReturnType<typeof appFor>;
    try {
      app = appFor(env);
    } catch (error) {
      return configurationError(error, request);
    }
    return app.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<WorkerEnv>;

/**
 * A variable that cannot be used (SANDBOX_RATE_LIMIT=fast, a malformed SANDBOX_KEYS) fails every
 * request with a 500 in the API's error shape that names the problem, rather than Cloudflare's
 * HTML error page. Node refuses to start instead (src/server.ts).
 */
function configurationError(error: unknown, request: Request): Response {
  const message = `The sandbox is misconfigured: ${error instanceof Error ? error.message : String(error)}`;
  console.error(message);
  const requestId = newRequestId();
  return new Response(errorBody(new ApiError('api_error', { message }), requestId), {
    status: 500,
    headers: {
      // As src/http/reply.ts answers: CORS only for browsers, which always send Origin.
      ...(request.headers.has('Origin') ? CORS_HEADERS : {}),
      'RateLimit-Policy': rateLimitPolicy(null),
      'Content-Type': 'application/json',
      'Request-Id': requestId,
    },
  });
}
