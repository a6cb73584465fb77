// Step 4 of the order of checks, on the POSTs that take an Idempotency-Key (SANDBOX.md,
// "Idempotency"): the same key and request replay the stored answer (`Idempotent-Replayed: true`);
// another request under the key, or the key while its first request runs, is 409
// `idempotency_conflict`; otherwise the steps after this one run, and their answer is stored once
// it passed validation (src/http/idempotency.ts says which). On a shared key the client's address
// is part of the key (SANDBOX.md, "Shared keys").
import type { Context } from 'hono';
import { type ApiError, errorBody } from '../errors.js';
import type { WriteReply } from '../http/endpoint.js';
import type { SandboxEnv } from '../http/env.js';
import { withIdempotency } from '../http/idempotency.js';
import type { Responder } from '../http/reply.js';
import type { IdempotencyStore } from '../idempotency/store.js';
import type { Step } from './step.js';

export function idempotency(store: IdempotencyStore, respond: Responder, clientAddress: (c: Context<SandboxEnv>) => string): Step {
  return async (c, next) => {
    const idempotencyKey = c.req.header('Idempotency-Key');
    if (idempotencyKey === undefined) return next();
    const key = c.get('key');
    let answered: Response | undefined;
    const outcome = await withIdempotency(
      store,
      {
        owner: key.shared === true ? `${key.key}\u0000${clientAddress(c)}` : key.key,
        idempotencyKey,
        method: c.req.method,
        path: c.req.path,
        body: c.get('body'),
      },
      async () => {
        answered = await next();
        // The later steps end with the handler, which answers or throws. An endpoint that takes an
        // Idempotency-Key is a write, answered by reply(): JSON text, stored as it was sent.
        const reply = c.get('reply') as WriteReply;
        return { status: reply.status, body: reply.json };
      },
      (error: ApiError) => ({ status: error.status, body: errorBody(error, respond.requestId(c)) }),
    );
    // The answer of what just ran is the one stored, byte for byte: reused rather than made again
    // (a keyed create's CPU, `npm run bench`). A replay or a stored error is made from the store.
    if (!outcome.replayed && answered !== undefined) return answered;
    return respond(c, outcome.response.status, outcome.response.body, outcome.replayed ? { 'Idempotent-Replayed': 'true' } : undefined);
  };
}
