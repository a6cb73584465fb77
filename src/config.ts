// The sandbox's configuration as the app takes it. Every way in (flags and environment variables,
// Workers [vars], createSandbox's options) reads into one schema of typed values
// (src/config/settings.ts) through src/config/sources.ts; readConfig is the variables' way.
import type { SandboxConfig } from './config/sandbox-config.js';
import { type ConfigSources, readText } from './config/sources.js';
import { DEFAULT_RATE_LIMIT } from './config/settings.js';

export { DEFAULT_RATE_LIMIT } from './config/settings.js';
export type { SandboxConfig } from './config/sandbox-config.js';
export type { ConfigSources } from './config/sources.js';

/**
 * The RateLimit-Policy every response carries (reference, "Limits"): the configured limit per
 * one-second window, or the default's when the limit is off (the header stays).
 */
export function rateLimitPolicy(rateLimit: number | null): string {
  return `${rateLimit ?? DEFAULT_RATE_LIMIT};w=1`;
}

/** Reads the environment variables (Node) or [vars] (Workers); throws a ConfigError naming the variable. */
export function readConfig(sources: ConfigSources): SandboxConfig {
  return readText(sources);
}
