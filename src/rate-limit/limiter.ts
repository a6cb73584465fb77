/** The verdict on one request: allowed, or refused with the seconds to wait. */
export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Counts requests per bucket (an API key and a client address). In memory on Node; shared
 * counters on Workers.
 */
export interface RateLimiter {
  take(bucket: string): RateDecision | Promise<RateDecision>;
}
