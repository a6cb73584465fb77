// The request as sent, read once for the steps after it: its query as single values and, for a
// write, its body as a JSON object (a malformed or over-large body is a 400 or 413 here, before
// the Idempotency-Key is looked up, which fingerprints the body). With the clock pinned, the
// values an answer derives from the request are prepared now (src/http/clock.ts).
import { readJsonObject } from '../http/body.js';
import type { MintOf } from '../http/clock.js';
import type { Endpoint } from '../http/endpoint.js';
import { readQuery } from '../http/query.js';
import type { Step } from './step.js';

export function readRequest(endpoint: Endpoint, mintOf: MintOf): Step {
  return async (c, next) => {
    c.set('query', readQuery(c.req.url));
    if (endpoint.body !== undefined) c.set('body', await readJsonObject(c.req.raw));
    // A pinned mint makes its root now, where only an asynchronous HMAC is native; the running
    // mint has nothing to prepare.
    await mintOf(c).prepare?.();
    return next();
  };
}
