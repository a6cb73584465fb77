// The Workers entry: the same app as Node (src/server.ts), with the Idempotency-Key store and
// the rate-limit counters in Durable Objects so every instance shares them (docs/workers.md).
// Configuration comes from the Worker's variables, named as in the README's "Configuration".
import { rateLimitPolicy } from './config.js';
import { ApiError, errorBody } from './errors.js';
import { MAX_BODY_BYTES } from './http/body.js';
import { CORS_HEADERS } from './http/reply.js';
import { requestLogEntry } from './http/request-log.js';
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
    const started = performance.now();
    let app: ReturnType<typeof appFor>;
    try {
      app = appFor(env);
    } catch (error) {
      return answered(request, configurationError(error, request), started);
    }
    const answer = app.fetch(request, env, ctx);
    return answer instanceof Promise ? answer.then((response) => answered(request, response, started)) : answered(request, answer, started);
  },
} satisfies ExportedHandler<WorkerEnv>;

/**
 * Every answer, on its way out: one log line for the operator (Workers Logs reads the JSON into
 * fields: docs/workers.md), and the request's body read to its end if the app answered without it.
 */
function answered(request: Request, response: Response, started: number): Response | Promise<Response> {
  // Workers' clocks stand still while code runs and move on I/O: ms is the time spent waiting
  // (Durable Objects, a held answer), the CPU is in the platform's own invocation log.
  console.log(JSON.stringify(requestLogEntry(request.method, request.url, response, performance.now() - started)));
  if (request.body === null || request.bodyUsed) return response;
  return drained(request).then(() => response);
}

/**
 * An answer made before the body was read (a 401, 429, api_error, a bad Sandbox-Simulate, a 404)
 * leaves the body unread. A request that reached workerd through another workerd (wrangler dev's
 * proxy Worker) could then fail on that hop, "Network connection lost" (workers-sdk#5095), which
 * wrangler reported as "503 Your worker restarted mid-request": 6 to 25 POSTs in a hundred.
 * Reading the rest first (it cannot be read once the answer went) makes the answer the app's on
 * every runtime (docs/workers.md). Only a body the API could take is read: past 1 MiB it is
 * refused, as the 413 of src/http/body.ts refuses it. GETs and bodies already read pay one check.
 */
async function drained(request: Request): Promise<void> {
  const body = request.body as ReadableStream<Uint8Array>;
  const declared = Number(request.headers.get('Content-Length'));
  try {
    if (declared > MAX_BODY_BYTES) {
      await body.cancel();
      return;
    }
    const reader = body.getReader();
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      size += value.byteLength;
      if (size > MAX_BODY_BYTES) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    // The client went away mid-body: there is nothing left to read, and the answer stands.
  }
}

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
