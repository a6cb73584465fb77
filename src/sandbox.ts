// The sandbox in-process, for integrators' test suites: `createSandbox()` gives the same app as
// `npx waste-operations-sandbox`, as a fetch handler (no port, no process). Their HTTP client's
// requests go to `sandbox.fetch` through a custom fetch or a request interceptor such as MSW.
import { createApp } from './app.js';
import { readConfig } from './config.js';
import { nodeDocsAssets } from './docs/node-assets.js';

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
  /** The clock of writes (created_at, updated_at of what a write answers); default the real one. */
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
  });
  const app = createApp(config, { docsAssets: nodeDocsAssets(), ...(options.now ? { now: options.now } : {}) });
  return {
    seed: config.seed,
    fetch: async (request) => app.fetch(request),
  };
}
