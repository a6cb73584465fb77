// The sandbox as one Hono app, the same on Node and Workers. The app below reads as the order of
// checks (docs/behaviour.md, "Order of checks"), each step a file of src/pipeline: the random
// fault drawn, the rate limit, the key, Sandbox-Clock, Sandbox-Simulate; then, the route matched
// (else 404/405), the scope, the request read, the Idempotency-Key, validation, and the endpoint's
// own checks and answer (referenced records, state rules, success). A success may emit events
// (docs/events-from-writes.md), and every answer passes the faults last (src/faults): lost,
// replaced by a 500 or held.
import { type Context, Hono } from 'hono';
import { METHOD_NAME_ALL } from 'hono/router';
import { KeyRing, workingKey } from './auth/keys.js';
import { rateLimitPolicy, type SandboxConfig } from './config.js';
import { type SampleStore, sampleStore } from './data/store.js';
import type { DocsAssets } from './docs/assets.js';
import { registerDocs } from './docs/routes.js';
import { Faults } from './faults/index.js';
import { clockOf } from './http/clock.js';
import { PathMatcher } from './http/endpoint.js';
import type { SandboxEnv } from './http/env.js';
import { responder } from './http/reply.js';
import { MemoryIdempotencyStore } from './idempotency/memory-store.js';
import type { IdempotencyStore } from './idempotency/store.js';
import { answerError } from './pipeline/answer-error.js';
import { requireKey } from './pipeline/authenticate.js';
import { clockHeader } from './pipeline/clock-header.js';
import { emitEvents } from './pipeline/emit-events.js';
import { handle } from './pipeline/handle.js';
import { idempotency } from './pipeline/idempotency.js';
import { preflight } from './pipeline/preflight.js';
import { drawRandomFault } from './pipeline/random-fault.js';
import { rateLimit } from './pipeline/rate-limit.js';
import { readRequest } from './pipeline/read-request.js';
import { unmatchedRoute } from './pipeline/route.js';
import { scope } from './pipeline/scope.js';
import { simulate } from './pipeline/simulate.js';
import { inOrder } from './pipeline/step.js';
import { validate } from './pipeline/validate.js';
import type { RateLimiter } from './rate-limit/limiter.js';
import { TokenBucketLimiter } from './rate-limit/token-bucket.js';
import { ENDPOINTS } from './resources/index.js';
import type { EventSink } from './webhooks/write-events.js';

export interface AppServices {
  idempotency?: IdempotencyStore;
  /** null switches rate limiting off; by default a token bucket per config.rateLimit. */
  rateLimiter?: RateLimiter | null;
  /**
   * The client's address (the socket or X-Forwarded-For on Node, CF-Connecting-IP on Workers,
   * createSandbox's clientAddress): it names rate-limit buckets, and Idempotency-Keys on a shared
   * key. Each entry point knows where it comes from, so none is assumed.
   */
  clientAddress: (c: Context<SandboxEnv>) => string;
  /** The running clock, when the clock is not pinned (config.clock, Sandbox-Clock); tests may fix it. */
  now?: () => Date;
  /** Swagger UI's files for /docs; without them /docs renders nothing (src/docs/assets.ts). */
  docsAssets?: DocsAssets;
  /** The sample data; by default the seed's (prebuilt for the default seed, else generated). */
  store?: SampleStore;
  /**
   * Where the events of writes go: each entry point builds it from config.webhook (Node's queue,
   * Workers' per-request delivery, createSandbox's onEvent); by default nowhere.
   */
  events?: EventSink | null;
}

export function createApp(config: SandboxConfig, services: AppServices) {
  const keys = new KeyRing(config.keys);
  // At hand at once for the default seed's prebuilt data; generated (a promise) for any other.
  const loading = services.store ?? sampleStore(config.seed);
  let store = loading instanceof Promise ? undefined : loading;
  const idempotencyStore = services.idempotency ?? new MemoryIdempotencyStore();
  const rateLimiter =
    services.rateLimiter !== undefined
      ? services.rateLimiter
      : config.rateLimit === null
        ? null
        : new TokenBucketLimiter({ perSecond: config.rateLimit });
  const clientAddress = services.clientAddress;
  const mintOf = clockOf(config.seed, config.clock, services.now ?? (() => new Date()));
  const policy = rateLimitPolicy(config.rateLimit);
  const respond = responder(policy, mintOf);
  const paths = new PathMatcher(ENDPOINTS);
  const events = services.events ?? null;
  // Held answers are bounded per app: one app per process on Node, per isolate on Workers.
  const faults = new Faults(config.faults, config.seed);

  const app = new Hono<SandboxEnv>();
  app.onError(answerError(respond));
  app.notFound(unmatchedRoute(respond, paths));

  // No key needed: the health check, the OpenAPI document, the reference page and the error
  // reference. The key /docs and the document show is one of the configured table that works;
  // its account's records are the examples.
  const health = '/health';
  app.get(health, (c) => respond(c, 200, '{"status":"ok"}'));
  const docsKey = workingKey(config.keys);
  registerDocs(app, {
    respond,
    rateLimitPolicy: policy,
    account: () => (store as SampleStore).accounts[docsKey?.account ?? 'A'],
    assets: services.docsAssets,
    key: docsKey,
  });
  app.options('/v1/*', preflight(respond, policy, paths));

  // The order of checks (docs/behaviour.md), each step a file of src/pipeline: those of every /v1
  // request first, then, the route matched (else 404/405, above), each endpoint's own.
  app.use(
    '/v1/*',
    inOrder(
      drawRandomFault(faults),
      ...(rateLimiter === null ? [] : [rateLimit(rateLimiter, clientAddress)]),
      requireKey(keys, (account) => (store as SampleStore).accounts[account], respond),
      clockHeader(),
      simulate(faults, respond),
    ),
  );
  for (const endpoint of ENDPOINTS) {
    app.on(
      endpoint.method,
      endpoint.routePath,
      inOrder(
        scope(endpoint),
        readRequest(endpoint, mintOf),
        emitEvents(events, mintOf),
        ...(endpoint.idempotent ? [idempotency(idempotencyStore, respond, clientAddress)] : []),
        validate(endpoint),
        handle(endpoint, respond, mintOf),
      ),
    );
  }

  // Every answer passes the faults last: lost, replaced by a 500 or held (src/faults).
  const answer = faults.wrap(app.fetch);
  app.fetch = answer;

  // Hono builds its router on the first match, whatever it matches: build it now, at start-up,
  // rather than in the first request (on Workers, the first request's CPU time is what the plan
  // limits).
  app.router.match(METHOD_NAME_ALL, health);

  if (loading instanceof Promise) {
    // Requests wait for a seed's data while it is generated; once it is, the wait is a promise
    // already settled (a microtask).
    const dispatch = answer;
    loading.then(
      (ready) => {
        store = ready;
      },
      () => {},
    );
    app.fetch = (request, env, executionCtx) => loading.then(() => dispatch(request, env, executionCtx));
  }
  return app;
}
