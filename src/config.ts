import { DEFAULT_KEYS, parseKeyTable, type ApiKey } from './auth/keys.js';
import { parsePinnedTime, pinnedTimeRule } from './clock/pinned-time.js';
import { DEFAULT_SEED } from './data/dataset.js';
import { readWebhookTarget, type WebhookSources, type WebhookTarget } from './webhooks/target.js';

/** The sandbox policy of SANDBOX.md: 25 requests a second per key and client address. */
export const DEFAULT_RATE_LIMIT = 25;

/**
 * The RateLimit-Policy every response carries (reference, "Limits"): the configured limit per
 * one-second window, or the default's when the limit is off (SANDBOX.md: the header stays).
 */
export function rateLimitPolicy(rateLimit: number | null): string {
  return `${rateLimit ?? DEFAULT_RATE_LIMIT};w=1`;
}

export interface SandboxConfig {
  seed: string;
  keys: readonly ApiKey[];
  /** Requests per second per key and client address; null when switched off. */
  rateLimit: number | null;
  /** The pinned clock of every answer (SANDBOX.md, "Pinned clock"); null: the clock runs. */
  clock: Date | null;
  /** Where the events of writes go (SANDBOX.md, "Events from writes"); null: nowhere. */
  webhook: WebhookTarget | null;
}

export interface ConfigSources extends WebhookSources {
  SANDBOX_SEED?: string | undefined;
  SANDBOX_RATE_LIMIT?: string | undefined;
  /** JSON text of the key table (Node reads a file path into text before calling). */
  SANDBOX_KEYS?: string | undefined;
  /** RFC 3339 UTC with seconds, as the API writes timestamps. */
  SANDBOX_CLOCK?: string | undefined;
}

/** Reads the configuration shared by Node and Workers; throws on a value that cannot be used. */
export function readConfig(sources: ConfigSources): SandboxConfig {
  return {
    seed: sources.SANDBOX_SEED?.trim() || DEFAULT_SEED,
    keys: sources.SANDBOX_KEYS?.trim() ? parseKeyTable(sources.SANDBOX_KEYS) : DEFAULT_KEYS,
    rateLimit: parseRateLimit(sources.SANDBOX_RATE_LIMIT),
    clock: parseClock(sources.SANDBOX_CLOCK),
    webhook: readWebhookTarget(sources),
  };
}

function parseClock(value: string | undefined): Date | null {
  const text = value?.trim();
  if (!text) return null;
  const time = parsePinnedTime(text);
  if (time === undefined) throw new Error(`SANDBOX_CLOCK ${pinnedTimeRule(value ?? '')}`);
  return time;
}

function parseRateLimit(value: string | undefined): number | null {
  const text = value?.trim().toLowerCase();
  if (!text) return DEFAULT_RATE_LIMIT;
  if (text === 'off') return null;
  if (!/^\d{1,6}$/.test(text) || Number(text) < 1) {
    throw new Error(`SANDBOX_RATE_LIMIT must be a whole number of requests per second (1 or more) or "off", not "${value}"`);
  }
  return Number(text);
}
