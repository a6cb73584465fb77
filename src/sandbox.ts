// The sandbox in-process, for integrators' test suites: `createSandbox()` gives the same app as
// `npx waste-operations-sandbox`, as a fetch handler (no port, no process). Their HTTP client's
// requests go to `sandbox.fetch` through a custom fetch or a request interceptor such as MSW.
import { createApp } from './app.js';
import { readOptions } from './config/sources.js';
import { nodeDocsAssets } from './docs/node-assets.js';
import type { EventType } from './resources/events/types.js';
import { WebhookDispatcher } from './webhooks/dispatcher.js';
import { signedTarget } from './webhooks/target.js';
import type { EventSink } from './webhooks/write-events.js';
import { connectionReset, isLostAnswer } from './faults/lost-answer.js';
import type { Context } from 'hono';
import { ConfigError } from './config/problems.js';
import type { SandboxEnv } from './http/env.js';
import { shownValue } from './http/messages.js';

/** One entry of the key table, as SANDBOX_KEYS takes it. */
export interface SandboxKey {
  key: string;
  account: 'A' | 'B';
  /** '*' for every scope, or a list such as ['jobs:read', 'jobs:write']. */
  scopes: '*' | readonly string[];
  revoked?: boolean;
  /**
   * Used by many people at once: Idempotency-Keys are then kept per client address (`clientAddress`),
   * as on the five default keys. Default false: the key's Idempotency-Keys are its own from any address.
   */
  shared?: boolean;
}

/** Options that are not configuration: the caller's own hooks. */
const NOT_CONFIGURATION = ['now', 'onEvent', 'clientAddress'] as const;

/** The address of every request when createSandbox is not given one (SANDBOX.md, "The client's address"). */
const FIXED_ADDRESS = 'in-process';

export interface SandboxOptions {
  /** Seed of the sample data; default the published seed, whose IDs the docs quote. */
  seed?: string;
  /** A key table that replaces the default one (entries, or their JSON text). */
  keys?: readonly SandboxKey[] | string;
  /** Requests per second per key and client address; 'off' by default in-process, so a test suite is never limited. */
  rateLimit?: number | 'off';
  /**
   * Pins the clock of every answer (docs/snapshot-tests.md): timestamps of writes are this
   * time, and new IDs, secrets and request IDs are derived from the request, so the same request
   * gets the same bytes on every run. `'2026-03-02T17:00:00Z'` or a Date (read to the second).
   * A request's `Sandbox-Clock` header wins over it.
   */
  clock?: string | Date;
  /**
   * The running clock of writes when the clock is not pinned (their created_at, updated_at);
   * default the real one. IDs stay random: for answers that never change, use `clock`.
   */
  now?: () => Date;
  /**
   * Delivers the events of writes (job.created, job.scheduled, container.received) to a receiver,
   * signed as production signs them, with retries (docs/events-from-writes.md). Without a
   * secret one is made: read it from `sandbox.webhook.secret`.
   */
  webhook?: { url: string; secret?: string; events?: '*' | readonly EventType[] };
  /** Told each event of a write as it is emitted, before any delivery; no HTTP involved. */
  onEvent?: (event: SandboxEvent) => void;
  /**
   * Random faults for soak tests, as SANDBOX_FAULTS takes them: the fraction of /v1 requests that
   * get each fault, e.g. `'api_error=0.02,reset_after_write=0.01,delay=0.05:1500'`. Drawn from a
   * stream seeded from the seed, so the same sequence of requests gets the same faults.
   */
  faults?: string;
  /**
   * The client's address, as a server takes it from the socket: on a shared key (the default
   * keys) each address has its own Idempotency-Keys, and each key and address its own rate-limit
   * bucket. Text for every request, or a function of the request (to play several clients
   * against one sandbox). Default: one fixed address for every request.
   */
  clientAddress?: string | ((request: Request) => string);
}

/**
 * An event object of the reference, as a write emits it and a receiver gets it. Written out
 * rather than inferred from the zod schema, so the published types need no zod.
 */
export interface SandboxEvent {
  id: string;
  object: 'event';
  type: EventType;
  /** The record exactly as the write answered it. */
  data: { object: { id: string; object: string; [field: string]: unknown } };
  created_at: string;
}

export interface Sandbox {
  /**
   * Answers one request exactly as the sandbox server would. Under `reset_after_write` it rejects
   * with a TypeError, as fetch does when the connection is reset.
   */
  fetch(request: Request): Promise<Response>;
  /** The seed in use. */
  readonly seed: string;
  /** Where the events of writes go, with the secret that signs them; undefined without `webhook`. */
  readonly webhook: { readonly url: string; readonly secret: string; readonly events: '*' | readonly EventType[] } | undefined;
  /** Resolves once every delivery of the events emitted so far has ended (or after `timeoutMs`). */
  deliveries(timeoutMs?: number): Promise<void>;
}

/**
 * Throws a TypeError naming the option when an option cannot be used, or is not one (with the
 * option it was probably meant to be).
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  // In-process, the rate limit is off unless asked for: a test suite is never limited.
  const config = readOptions({ ...options, rateLimit: options.rateLimit ?? 'off' }, NOT_CONFIGURATION);
  const webhook = config.webhook === null ? undefined : signedTarget(config.webhook);
  const dispatcher = webhook === undefined ? undefined : new WebhookDispatcher(webhook);
  const onEvent = options.onEvent;
  /** Events emitted for later (duplicate_event), which deliveries() waits for too. */
  const waiting = new Set<Promise<void>>();
  const sink: EventSink = {
    emit(event, afterMs = 0) {
      if (afterMs === 0) {
        onEvent?.(JSON.parse(event.body) as SandboxEvent);
        return dispatcher?.emit(event);
      }
      // The second delivery of duplicate_event: onEvent is told again, as a receiver is.
      const later = new Promise<void>((resolve) => setTimeout(resolve, afterMs)).then(() => sink.emit(event));
      const tracked: Promise<void> = later.finally(() => waiting.delete(tracked));
      waiting.add(tracked);
      return tracked;
    },
  };
  const events = onEvent === undefined && dispatcher === undefined ? null : sink;
  const app = createApp(config, {
    docsAssets: nodeDocsAssets(),
    events,
    clientAddress: clientAddressOf(options.clientAddress),
    ...(options.now ? { now: options.now } : {}),
  });
  return {
    seed: config.seed,
    webhook: webhook === undefined ? undefined : { url: webhook.url, secret: webhook.secret, events: webhook.events },
    fetch: async (request) => {
      const response = await app.fetch(request);
      if (isLostAnswer(response)) throw connectionReset();
      return response;
    },
    deliveries: async (timeoutMs = 30_000) => {
      const deadline = Date.now() + timeoutMs;
      while (waiting.size > 0 && Date.now() < deadline) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([Promise.all(waiting), new Promise((resolve) => (timer = setTimeout(resolve, deadline - Date.now())))]);
        clearTimeout(timer);
      }
      await dispatcher?.idle(Math.max(0, deadline - Date.now()));
    },
  };
}

/** createSandbox's clientAddress as the app takes it, or a ConfigError naming the option. */
function clientAddressOf(option: SandboxOptions['clientAddress'] = FIXED_ADDRESS): (c: Context<SandboxEnv>) => string {
  if (typeof option === 'function') return (c) => option(c.req.raw);
  if (typeof option === 'string' && option.trim() !== '') return () => option;
  throw new ConfigError(
    `createSandbox({ clientAddress }) must be the client's address as text, such as "203.0.113.7", or a function of the request that returns it; received ${shownValue(option)}.`,
  );
}
