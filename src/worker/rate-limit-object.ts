// Rate-limit counters shared by every instance of the Worker: one Durable Object per bucket
// (API key and client address, docs/workers.md), each holding a
// token bucket refilled at the configured requests per second.
//
// Why not Workers' built-in rate-limiting binding: it counts over periods of 10 or 60 seconds
// only, so it cannot express the sandbox policy `25;w=1` (25 requests per 1-second window), and
// its counters are per Cloudflare location and eventually consistent.
import { DurableObject } from 'cloudflare:workers';
import type { RateDecision } from '../rate-limit/limiter.js';
import { TokenBucketLimiter } from '../rate-limit/token-bucket.js';

export class RateLimitObject extends DurableObject {
  #limiter: TokenBucketLimiter | undefined;
  #perSecond = 0;

  /**
   * Takes one token from this bucket. The bucket lives in memory, not in storage: an object is
   * only evicted after seconds of idleness, by which time a bucket that refills fully within one
   * second is full anyway, so a fresh one is the same answer without a storage write per request.
   * The algorithm is Node's own (src/rate-limit/token-bucket.ts), so both runtimes refuse the
   * same requests.
   */
  take(perSecond: number): RateDecision {
    if (this.#limiter === undefined || this.#perSecond !== perSecond) {
      this.#limiter = new TokenBucketLimiter({ perSecond, maxBuckets: 1 });
      this.#perSecond = perSecond;
    }
    return this.#limiter.take('bucket');
  }
}
