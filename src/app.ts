// The sandbox as one Hono app, the same on Node and Workers. Checks run in the order of
// docs/behaviour.md ("Order of checks"): auth, unknown path / wrong method, scope, idempotency,
// validation, referenced records, state rules, success; the rate limit comes before auth, and
// Sandbox-Clock then Sandbox-Simulate just after it. A success may emit events (docs/
// events-from-writes.md), handed to the event sink, which delivers them after the answer. Faults
// asked for (docs/testing-retries.md) act through src/faults: before anything runs, or on the
// answer of a write that ran.
import { Hono, type Context, type Next } from 'hono';
import { KeyRing, workingKey } from './auth/keys.js';
import { rateLimitPolicy, type SandboxConfig } from './config.js';
import { type SampleStore, sampleStore } from './data/store.js';
import type { DocsAssets } from './docs/assets.js';
import { registerDocs } from './docs/routes.js';
import { ApiError, errorBody } from './errors.js';
import { authenticate, requireScope } from './http/auth.js';
import { readJsonObject } from './http/body.js';
import { headerText } from './http/header-text.js';
import { CLOCK_HEADER, checkClockHeader, clockOf } from './http/clock.js';
import type { Endpoint, Reply } from './http/endpoint.js';
import { PathMatcher } from './http/endpoint.js';
import type { SandboxEnv } from './http/env.js';
import { withIdempotency } from './http/idempotency.js';
import { readQuery } from './http/query.js';
import { CORS_HEADERS, errorResponse, responder } from './http/reply.js';
import { parseOrThrow } from './http/validation.js';
import { MemoryIdempotencyStore } from './idempotency/memory-store.js';
import type { IdempotencyStore, StoredResponse } from './idempotency/store.js';
import type { RateDecision, RateLimiter } from './rate-limit/limiter.js';
import { TokenBucketLimiter } from './rate-limit/token-bucket.js';
import { ENDPOINTS } from './resources/index.js';
import { type EventSink, writeEvent } from './webhooks/write-events.js';
import { EmptyQuery } from './schemas/query.js';
import { Faults, type FaultPlan } from './faults/index.js';
import { DUPLICATE_GAP_MS } from './faults/plan.js';
import { SIMULATE_HEADER } from './faults/simulate.js';

export interface AppServices {
  idempotency?: IdempotencyStore;
  /** null switches rate limiting off; by default a token bucket per config.rateLimit. */
  rateLimiter?: RateLimiter | null;
  /**
   * The client's address (the socket or X-Forwarded-For on Node, CF-Connecting-IP on Workers,
   * createSandbox's clientAddress): it names rate-limit buckets, and Idempotency-Keys on a shared key.
   */
  clientAddress?: (c: Context<SandboxEnv>) => string;
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

const textDecoder = new TextDecoder();

export function createApp(config: SandboxConfig, services: AppServices = {}) {
  const keys = new KeyRing(config.keys);
  // At hand at once for the default seed's prebuilt data; generated (a promise) for any other.
  const loading = services.store ?? sampleStore(config.seed);
  let store = loading instanceof Promise ? undefined : loading;
  const idempotency = services.idempotency ?? new MemoryIdempotencyStore();
  const rateLimiter =
    services.rateLimiter !== undefined
      ? services.rateLimiter
      : config.rateLimit === null
        ? null
        : new TokenBucketLimiter({ perSecond: config.rateLimit });
  const clientAddress = services.clientAddress ?? (() => 'unknown');
  const mintOf = clockOf(config.seed, config.clock, services.now ?? (() => new Date()));
  const policy = rateLimitPolicy(config.rateLimit);
  const respond = responder(policy, mintOf);
  const paths = new PathMatcher(ENDPOINTS);
  const events = services.events ?? null;
  // Held answers are bounded per app: one app per process on Node, per isolate on Workers.
  const faults = new Faults(config.faults, config.seed);

  const app = new Hono<SandboxEnv>();

  app.onError((error, c) => {
    if (error instanceof ApiError) return errorResponse(respond, c, error);
    // A real fault: log it for the operator, tell the client only that it may retry.
    console.error(`[${respond.requestId(c)}] ${c.req.method} ${c.req.path}:`, error);
    return errorResponse(
      respond,
      c,
      new ApiError('api_error', { message: 'An internal error occurred. Retry with the same Idempotency-Key.' }),
    );
  });

  app.notFound((c) => {
    const allowed = paths.allowed(c.req.path);
    if (allowed.length > 0) {
      return errorResponse(
        respond,
        c,
        new ApiError('method_not_allowed', {
          message: `${c.req.method} is not allowed on ${shortPath(c.req.path)}. Allowed: ${allowed.join(', ')}.`,
          headers: { Allow: allowed.join(', ') },
        }),
      );
    }
    return errorResponse(
      respond,
      c,
      new ApiError('resource_missing', { message: `Unrecognized request URL (${c.req.method} ${shortPath(c.req.path)}).` }),
    );
  });

  app.get('/health', (c) => respond(c, 200, '{"status":"ok"}'));
  // No key needed: the OpenAPI document, the reference page and the error reference.
  // The key /docs and the document show is one of the configured table that works; its account's records are the examples.
  const docsKey = workingKey(config.keys);
  registerDocs(app, {
    respond,
    rateLimitPolicy: policy,
    account: () => (store as SampleStore).accounts[docsKey?.account ?? 'A'],
    assets: services.docsAssets,
    key: docsKey,
  });

  // CORS preflight for every origin, answered before auth: browsers send no key with it.
  app.options('/v1/*', (c) => {
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
  });

  // Not async: on Node the limiter answers at once, and a check that throws synchronously costs
  // far less than a rejected promise (a 401 is the commonest answer a public sandbox gives).
  app.use('/v1/*', (c, next) => {
    const authorization = c.req.header('Authorization');
    // Every /v1 request draws its random fault as it arrives (none unless SANDBOX_FAULTS is set).
    const drawn = faults.draw();
    if (rateLimiter === null) return authorize(c, next, authorization, drawn);
    // Per key and client address; an unauthenticated caller is limited by its address alone.
    const decision = rateLimiter.take(`${(authorization ?? '').slice(0, 300)}\u0000${clientAddress(c)}`);
    if (decision instanceof Promise) return decision.then((settled) => admit(settled, c, next, authorization, drawn));
    return admit(decision, c, next, authorization, drawn);
  });

  type Drawn = ReturnType<Faults['draw']>;

  function admit(decision: RateDecision, c: Context<SandboxEnv>, next: Next, authorization: string | undefined, drawn: Drawn) {
    if (!decision.allowed) throw rateLimited(decision.retryAfterSeconds);
    return authorize(c, next, authorization, drawn);
  }

  function authorize(c: Context<SandboxEnv>, next: Next, authorization: string | undefined, drawn: Drawn) {
    const key = authenticate(authorization, keys);
    // A Response returned by middleware becomes the answer (hono/compose); returned, not thrown.
    if (key instanceof ApiError) return errorResponse(respond, c, key) as unknown as Promise<void>;
    c.set('key', key);
    c.set('account', (store as SampleStore).accounts[key.account]);
    // The clock first: a simulated failure's request ID is derived when the clock is pinned.
    if (c.req.header(CLOCK_HEADER) !== undefined) checkClockHeader(c);
    const simulate = c.req.header(SIMULATE_HEADER);
    if (simulate !== undefined || drawn !== undefined) askFaults(c, simulate, drawn);
    return next();
  }

  function askFaults(c: Context<SandboxEnv>, simulate: string | undefined, drawn: Drawn): void {
    // As sent: a value past ASCII (never a valid one) is quoted in its 400 as the client wrote it.
    const sent = simulate === undefined ? undefined : headerText(simulate);
    const plan = faults.begin(c.req.raw, sent, drawn, (error) => errorResponse(respond, c, error));
    if (plan === undefined) return;
    c.set('fault', plan);
    faults.actNow(plan, c.req.method);
  }

  for (const endpoint of ENDPOINTS) {
    app.on(endpoint.method, endpoint.routePath, (c) => handleEndpoint(c, endpoint));
  }

  async function handleEndpoint(c: Context<SandboxEnv>, endpoint: Endpoint): Promise<Response> {
    const key = c.get('key');
    requireScope(key, endpoint.scope);
    const rawQuery = readQuery(c.req.url);
    const rawBody = endpoint.body === undefined ? undefined : await readJsonObject(c.req.raw);
    const mint = mintOf(c);
    if (mint.pinned !== undefined) {
      c.set('body', rawBody);
      await mint.prepare?.();
    }

    const run = async (): Promise<Reply> => {
      // Most reads carry no query: skip the parse rather than validate an empty object.
      // An endpoint's schemas are built by its first request (src/schemas/deferred.ts).
      const query =
        rawQuery === null && endpoint.query === undefined ? {} : parseOrThrow(endpoint.query?.() ?? EmptyQuery(), rawQuery ?? {});
      const body =
        endpoint.body === undefined ? undefined : parseOrThrow(endpoint.body(), rawBody, { readonlyFields: endpoint.readonlyFields ?? [] });
      return endpoint.handle({ c, account: c.get('account'), id: c.req.param('id') ?? '', query, body, now: mint.now, mint });
    };

    const idempotencyKey = endpoint.idempotent ? c.req.header('Idempotency-Key') : undefined;
    if (idempotencyKey === undefined) {
      const result = await run();
      succeeded(c, result);
      return respond(c, result.status, result.json);
    }
    let ran: Reply | undefined;
    const outcome = await withIdempotency(
      idempotency,
      {
        apiKey: key.key,
        clientAddress: key.shared === true ? clientAddress(c) : undefined,
        idempotencyKey,
        method: endpoint.method,
        path: c.req.path,
        body: rawBody,
      },
      async (): Promise<StoredResponse> => {
        ran = await run();
        return { status: ran.status, body: typeof ran.json === 'string' ? ran.json : textDecoder.decode(ran.json) };
      },
      (error) => ({ status: error.status, body: errorBody(error, respond.requestId(c)) }),
    );
    // Once, for the write that ran: a replay (or a stored 404 or 422) emits nothing.
    if (!outcome.replayed && ran !== undefined) succeeded(c, ran);
    return respond(c, outcome.response.status, outcome.response.body, outcome.replayed ? { 'Idempotent-Replayed': 'true' } : undefined);
  }

  /**
   * A request ran and succeeded (not a replay): its faults are told, and the events of a write are
   * handed to the sink (twice under duplicate_event, the same bytes); on Workers the delivery runs
   * after the answer.
   */
  function succeeded(c: Context<SandboxEnv>, result: Reply): void {
    const plan: FaultPlan | undefined = c.get('fault');
    plan?.succeeded(result.events !== undefined);
    if (events === null || result.events === undefined) return;
    const record = typeof result.json === 'string' ? result.json : textDecoder.decode(result.json);
    for (const type of result.events) {
      const event = writeEvent(mintOf(c), type, record);
      const pending = events.emit(event);
      if (pending !== undefined) waitUntil(c, pending);
      const again = plan?.duplicatesEvents === true ? events.emit(event, DUPLICATE_GAP_MS) : undefined;
      if (again !== undefined) waitUntil(c, again);
    }
  }

  // Every answer passes the faults last: lost, replaced by a 500 or held (src/faults).
  const answer = faults.wrap(app.fetch);
  app.fetch = answer;

  // Hono builds its router on the first match: build it now, at start-up, rather than in the
  // first request (on Workers, the first request's CPU time is what the plan limits).
  app.router.match('GET', '/health');

  if (loading instanceof Promise) {
    // Requests that arrive while a seed's data is generated wait for it; then none waits again.
    const dispatch = answer;
    loading.then(
      (ready) => {
        store = ready;
      },
      () => {},
    );
    app.fetch = (request, env, executionCtx) =>
      store !== undefined ? dispatch(request, env, executionCtx) : loading.then(() => dispatch(request, env, executionCtx));
  }
  return app;
}

/** Workers keep the isolate for work after the answer only when told; Node has no such context. */
function waitUntil(c: Context<SandboxEnv>, work: Promise<void>): void {
  let executionCtx: { waitUntil(promise: Promise<unknown>): void } | undefined;
  try {
    executionCtx = c.executionCtx;
  } catch {
    return;
  }
  executionCtx.waitUntil(work);
}

function rateLimited(retryAfterSeconds: number): ApiError {
  return new ApiError('rate_limited', {
    message: `Too many requests. Retry after ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}.`,
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });
}

/** A path as an error message repeats it: whole up to 200 characters (a URL may be 16 KiB). */
function shortPath(path: string): string {
  return path.length <= 200 ? path : `${path.slice(0, 200)}…`;
}
