import type { Context } from 'hono';
import { newRequestId } from '../clock/mint.js';
import type { SandboxEnv } from './env.js';

/**
 * The request's ID, made on first use and kept on the context: the body of an error and the
 * Request-Id header then always agree. Made lazily rather than by a middleware, which would add
 * a layer to every request. With a pinned clock the request's mint derives it (src/http/clock.ts);
 * the responder attaches the mint before asking.
 */
export function requestId(c: Context<SandboxEnv>): string {
  let id = c.get('requestId');
  if (id === undefined) {
    id = c.get('mint')?.requestId() ?? newRequestId();
    c.set('requestId', id);
  }
  return id;
}
