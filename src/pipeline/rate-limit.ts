// The rate limit, before the key (SANDBOX.md, "Rate limits"): a bucket per key and client address,
// so an unauthenticated caller is limited by its address alone. Not async: on Node the limiter
// answers at once, and a check that throws synchronously costs far less than a rejected promise.
import type { Context } from 'hono';
import { ApiError } from '../errors.js';
import type { SandboxEnv } from '../http/env.js';
import type { RateDecision, RateLimiter } from '../rate-limit/limiter.js';
import type { Next, Step, StepResult } from './step.js';

export function rateLimit(limiter: RateLimiter, clientAddress: (c: Context<SandboxEnv>) => string): Step {
  return (c, next) => {
    const decision = limiter.take(`${(c.req.header('Authorization') ?? '').slice(0, 300)}\u0000${clientAddress(c)}`);
    if (decision instanceof Promise) return decision.then((settled) => admit(settled, next));
    return admit(decision, next);
  };
}

function admit(decision: RateDecision, next: Next): StepResult {
  if (!decision.allowed) throw rateLimited(decision.retryAfterSeconds);
  return next();
}

function rateLimited(retryAfterSeconds: number): ApiError {
  return new ApiError('rate_limited', {
    message: `Too many requests. Retry after ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}.`,
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });
}
