import type { Context } from 'hono';
import type { Mint } from '../clock/mint.js';
import type { SandboxEnv } from './env.js';

/**
 * The request's ID, made on first use and kept on the context: the body of an error and the
 * Request-Id header then always agree. Made lazily rather than by a middleware, which would add
 * a layer to every request. The request's mint makes it: random while the clock runs, derived
 * when it is pinned (src/http/clock.ts).
 */
export function requestId(c: Context<SandboxEnv>, mint: Mint): string {
  let id = c.get('requestId');
  if (id === undefined) {
    id = mint.requestId();
    c.set('requestId', id);
  }
  return id;
}
