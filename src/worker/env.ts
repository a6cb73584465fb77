// The bindings of the Worker (wrangler.toml). Variables carry the names of the README's
// "Configuration"; PORT and HOST have no meaning on Workers.
import type { IdempotencyObject } from './idempotency-object.js';
import type { RateLimitObject } from './rate-limit-object.js';

export interface WorkerEnv {
  SANDBOX_SEED?: string;
  SANDBOX_RATE_LIMIT?: string;
  /**
   * JSON text of the key table. A `[vars]` entry written as a TOML table or array arrives as a
   * parsed value instead of text, so the entry point accepts either.
   */
  SANDBOX_KEYS?: string | object;
  /** Pins the clock of every answer: docs/snapshot-tests.md. */
  SANDBOX_CLOCK?: string;
  /** Where the events of writes go, signed with the secret (a Worker cannot print one it makes). */
  SANDBOX_WEBHOOK_URL?: string;
  SANDBOX_WEBHOOK_SECRET?: string;
  SANDBOX_WEBHOOK_EVENTS?: string;
  /** Random faults for soak tests: docs/testing-retries.md. */
  SANDBOX_FAULTS?: string;
  /** One object per (API key, Idempotency-Key): docs/workers.md. */
  IDEMPOTENCY: DurableObjectNamespace<IdempotencyObject>;
  /** Swagger UI's files for /docs (wrangler.toml [assets], laid out by scripts/docs-assets.mjs). */
  ASSETS?: Fetcher;
  /** One object per rate-limit bucket (API key and client address). */
  RATE_LIMITS: DurableObjectNamespace<RateLimitObject>;
}
