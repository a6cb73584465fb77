// The sandbox's configuration as the app takes it. Every way in (flags and environment variables,
// Workers [vars], createSandbox's options) reads into one schema of typed values
// (src/config/settings.ts) through src/config/sources.ts; readConfig is the variables' way.
import type { ApiKey } from './auth/keys.js';
import type { RandomFaults } from './faults/random.js';
import type { WebhookTarget } from './webhooks/target.js';
import { type ConfigSources, readText } from './config/sources.js';
import { DEFAULT_RATE_LIMIT } from './config/settings.js';

export { DEFAULT_RATE_LIMIT } from './config/settings.js';
export type { ConfigSources } from './config/sources.js';

/**
 * The RateLimit-Policy every response carries (reference, "Limits"): the configured limit per
 * one-second window, or the default's when the limit is off (the header stays).
 */
export function rateLimitPolicy(rateLimit: number | null): string {
  return `${rateLimit ?? DEFAULT_RATE_LIMIT};w=1`;
}

export interface SandboxConfig {
  seed: string;
  keys: readonly ApiKey[];
  /** Requests per second per key and client address; null when switched off. */
  rateLimit: number | null;
  /** The pinned clock of every answer (docs/snapshot-tests.md); null: the clock runs. */
  clock: Date | null;
  /** Where the events of writes go (docs/events-from-writes.md); null: nowhere. */
  webhook: WebhookTarget | null;
  /** Random faults for soak tests (docs/testing-retries.md); null: none. */
  faults: RandomFaults | null;
}

/** Reads the environment variables (Node) or [vars] (Workers); throws a ConfigError naming the variable. */
export function readConfig(sources: ConfigSources): SandboxConfig {
  return readText(sources);
}
