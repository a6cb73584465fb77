import type { RateDecision, RateLimiter } from '../rate-limit/limiter.js';
import { objectName } from './object-name.js';
import type { RateLimitObject } from './rate-limit-object.js';

/**
 * The RateLimiter of the Worker: the bucket's Durable Object decides, so a client spread over
 * isolates or locations still gets `perSecond` requests a second in total, as on Node.
 */
export class DurableObjectRateLimiter implements RateLimiter {
  readonly #namespace: DurableObjectNamespace<RateLimitObject>;
  readonly #perSecond: number;

  constructor(namespace: DurableObjectNamespace<RateLimitObject>, perSecond: number) {
    this.#namespace = namespace;
    this.#perSecond = perSecond;
  }

  async take(bucket: string): Promise<RateDecision> {
    const object = this.#namespace.getByName(await rateLimitObjectName(bucket));
    return object.take(this.#perSecond);
  }
}

/** The object that holds a bucket as src/app.ts names it (Authorization header and client address). */
export async function rateLimitObjectName(bucket: string): Promise<string> {
  return objectName('rate-limit', bucket);
}
