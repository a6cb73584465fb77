import type { RateDecision, RateLimiter } from './limiter.js';

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/** Every bucket holds `perSecond` tokens at most and refills `perSecond` a second. */
const FULL_AGAIN_MS = 1000;

export interface TokenBucketOptions {
  /** Refill rate and burst size: `perSecond` requests, refilled continuously. */
  perSecond: number;
  /** Most buckets kept; the least recently used go first. */
  maxBuckets?: number;
  now?: () => number;
}

/**
 * Most buckets kept: each holds up to ~700 bytes (a presented key of up to 300 characters and an
 * address), so 20,000 stay under 14 MiB however many distinct keys a flood presents.
 */
export const MAX_BUCKETS = 20_000;

/**
 * The Node limiter: a token bucket per key and client address, in a Map kept in
 * least-recently-used order so memory stays bounded however many callers arrive. A bucket that
 * is evicted comes back full, which only ever errs toward letting a request through.
 */
export class TokenBucketLimiter implements RateLimiter {
  readonly #buckets = new Map<string, Bucket>();
  readonly #perSecond: number;
  readonly #maxBuckets: number;
  readonly #now: () => number;

  constructor(options: TokenBucketOptions) {
    this.#perSecond = options.perSecond;
    this.#maxBuckets = options.maxBuckets ?? MAX_BUCKETS;
    this.#now = options.now ?? Date.now;
  }

  get size(): number {
    return this.#buckets.size;
  }

  take(key: string): RateDecision {
    const now = this.#now();
    this.#dropIdle(now);
    const bucket = this.#buckets.get(key);
    let tokens = this.#perSecond;
    if (bucket !== undefined) {
      this.#buckets.delete(key);
      tokens = Math.min(this.#perSecond, bucket.tokens + ((now - bucket.updatedAt) / 1000) * this.#perSecond);
    } else if (this.#buckets.size >= this.#maxBuckets) {
      // Full (maxBuckets is at least 1), so the first key, the least recently used, is there.
      this.#buckets.delete(this.#buckets.keys().next().value as string);
    }
    if (tokens >= 1) {
      this.#buckets.set(key, { tokens: tokens - 1, updatedAt: now });
      return { allowed: true };
    }
    this.#buckets.set(key, { tokens, updatedAt: now });
    // Fewer than 1 token here, so the wait is more than 0 s and rounds up to 1 s or more.
    return { allowed: false, retryAfterSeconds: Math.ceil((1 - tokens) / this.#perSecond) };
  }

  /**
   * A bucket untouched for a second is full again, exactly as if it had never existed, so it is
   * dropped at no cost to accuracy: memory falls back once a flood of callers has passed. The
   * Map is in least-recently-used order, so idle buckets are always at its front.
   */
  #dropIdle(now: number): void {
    for (const [key, bucket] of this.#buckets) {
      if (now - bucket.updatedAt < FULL_AGAIN_MS) break;
      this.#buckets.delete(key);
    }
  }
}
