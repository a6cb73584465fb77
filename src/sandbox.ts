// The sandbox in-process, for integrators' test suites: `createSandbox()` gives the same app as
// `npx waste-operations-sandbox`, as a fetch handler (no port, no process). Their HTTP client's
// requests go to `sandbox.fetch` through a custom fetch or a request interceptor such as MSW.
import { createApp } from './app.js';
import { parsePinnedTime, pinnedTimeRule } from './clock/pinned-time.js';
import { readConfig } from './config.js';
import { nodeDocsAssets } from './docs/node-assets.js';
import { timestamp } from './schemas/new-records.js';

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
}

export interface Sandbox {
  /** Answers one request exactly as the sandbox server would. */
  fetch(request: Request): Promise<Response>;
  /** The seed in use. */
  readonly seed: string;
}

/** Throws an Error naming the option when an option cannot be used. */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const config = readConfig({
    SANDBOX_SEED: options.seed,
    SANDBOX_RATE_LIMIT: String(options.rateLimit ?? 'off'),
    SANDBOX_KEYS: typeof options.keys === 'string' || options.keys === undefined ? options.keys : JSON.stringify(options.keys),
    SANDBOX_CLOCK: clockText(options.clock),
  });
  const app = createApp(config, { docsAssets: nodeDocsAssets(), ...(options.now ? { now: options.now } : {}) });
  return {
    seed: config.seed,
    fetch: async (request) => app.fetch(request),
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
