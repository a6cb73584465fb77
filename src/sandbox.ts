// The sandbox in-process, for integrators' test suites: `createSandbox()` gives the same app as
// `npx waste-operations-sandbox`, as a fetch handler (no port, no process). Their HTTP client's
// requests go to `sandbox.fetch` through a custom fetch or a request interceptor such as MSW.
import { createApp } from './app.js';
import { parsePinnedTime, pinnedTimeRule } from './clock/pinned-time.js';
import { readConfig } from './config.js';
import { nodeDocsAssets } from './docs/node-assets.js';
import type { EventType } from './resources/events/types.js';
import { timestamp } from './schemas/new-records.js';
import { WebhookDispatcher } from './webhooks/dispatcher.js';
import { signedTarget } from './webhooks/target.js';
import type { EventSink } from './webhooks/write-events.js';

/** One entry of the key table, as SANDBOX_KEYS takes it. */
export interface SandboxKey {
  key: string;
  account: 'A' | 'B';
  /** '*' for every scope, or a list such as ['jobs:read', 'jobs:write']. */
  scopes: '*' | readonly string[];
  revoked?: boolean;
}

export interface SandboxOptions {
  /** Seed of the sample data; default the published seed, whose IDs the docs quote. */
  seed?: string;
  /** A key table that replaces the default one (entries, or their JSON text). */
  keys?: readonly SandboxKey[] | string;
  /** Requests per second per key; 'off' by default in-process, so a test suite is never limited. */
  rateLimit?: number | 'off';
  /**
   * Pins the clock of every answer (SANDBOX.md, "Pinned clock"): timestamps of writes are this
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
   * signed as production signs them, with retries (SANDBOX.md, "Events from writes"). Without a
   * secret one is made: read it from `sandbox.webhook.secret`.
   */
  webhook?: { url: string; secret?: string; events?: '*' | readonly EventType[] };
  /** Told each event of a write as it is emitted, before any delivery; no HTTP involved. */
  onEvent?: (event: SandboxEvent) => void;
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
  /** Answers one request exactly as the sandbox server would. */
  fetch(request: Request): Promise<Response>;
  /** The seed in use. */
  readonly seed: string;
  /** Where the events of writes go, with the secret that signs them; undefined without `webhook`. */
  readonly webhook: { readonly url: string; readonly secret: string; readonly events: '*' | readonly EventType[] } | undefined;
  /** Resolves once every delivery of the events emitted so far has ended (or after `timeoutMs`). */
  deliveries(timeoutMs?: number): Promise<void>;
}

/** Throws an Error naming the option when an option cannot be used. */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const config = readOptions({
    SANDBOX_SEED: options.seed,
    SANDBOX_RATE_LIMIT: String(options.rateLimit ?? 'off'),
    SANDBOX_KEYS: typeof options.keys === 'string' || options.keys === undefined ? options.keys : JSON.stringify(options.keys),
    SANDBOX_CLOCK: clockText(options.clock),
    ...webhookSources(options.webhook),
  });
  const webhook = config.webhook === null ? undefined : signedTarget(config.webhook);
  const dispatcher = webhook === undefined ? undefined : new WebhookDispatcher(webhook);
  const onEvent = options.onEvent;
  const events: EventSink | null =
    onEvent === undefined && dispatcher === undefined
      ? null
      : {
          emit(event) {
            onEvent?.(JSON.parse(event.body) as SandboxEvent);
            return dispatcher?.emit(event);
          },
        };
  const app = createApp(config, { docsAssets: nodeDocsAssets(), events, ...(options.now ? { now: options.now } : {}) });
  return {
    seed: config.seed,
    webhook: webhook === undefined ? undefined : { url: webhook.url, secret: webhook.secret, events: webhook.events },
    fetch: async (request) => app.fetch(request),
    deliveries: async (timeoutMs = 30_000) => dispatcher?.idle(timeoutMs),
  };
}

/** readConfig, its messages naming the option rather than the variable the server reads. */
function readOptions(sources: Parameters<typeof readConfig>[0]): ReturnType<typeof readConfig> {
  try {
    return readConfig(sources);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw message.startsWith('SANDBOX_WEBHOOK_') ? new TypeError(`createSandbox({ webhook }): ${message}`) : error;
  }
}

/** The webhook option as the variables the server reads, so both check it alike. */
function webhookSources(webhook: SandboxOptions['webhook']) {
  if (webhook === undefined) return {};
  if (typeof webhook !== 'object' || webhook === null || typeof webhook.url !== 'string') {
    throw new TypeError('createSandbox({ webhook }) must be an object such as { url: "http://127.0.0.1:4242/webhooks" }');
  }
  if (Array.isArray(webhook.events) && webhook.events.length === 0) {
    throw new TypeError("createSandbox({ webhook }): events must list at least one event type, or be '*' (the default)");
  }
  return {
    SANDBOX_WEBHOOK_URL: webhook.url,
    SANDBOX_WEBHOOK_SECRET: webhook.secret,
    SANDBOX_WEBHOOK_EVENTS: webhook.events === undefined || webhook.events === '*' ? undefined : webhook.events.join(','),
  };
}

/** The clock option as SANDBOX_CLOCK's text; a Date is read to the second, as the API writes time. */
function clockText(clock: string | Date | undefined): string | undefined {
  if (clock === undefined) return undefined;
  if (clock instanceof Date && !Number.isNaN(clock.getTime())) return timestamp(clock);
  const text = typeof clock === 'string' ? clock.trim() : String(clock);
  if (parsePinnedTime(text) === undefined) throw new TypeError(`createSandbox({ clock }) ${pinnedTimeRule(text)}`);
  return text;
}
