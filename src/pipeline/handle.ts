// Steps 6 to 8 of the order of checks, the endpoint's own (src/resources): the records the request
// names (404), the state rules (422), and the answer, kept in the context for the steps that
// wrap this one (the Idempotency-Key's store, the events of a write).
import type { MintOf } from '../http/clock.js';
import type { Endpoint } from '../http/endpoint.js';
import type { Responder } from '../http/reply.js';
import type { Step } from './step.js';

export function handle(endpoint: Endpoint, respond: Responder, mintOf: MintOf): Step {
  return async (c) => {
    const mint = mintOf(c);
    const { query, body } = c.get('input');
    const reply = await endpoint.handle({ c, account: c.get('account'), id: c.req.param('id') ?? '', query, body, now: mint.now, mint });
    c.set('reply', reply);
    // It ran and succeeded: its faults are told before the answer is made, so that an
    // `_after_write` fault acts on it and Sandbox-Fault names what is in effect.
    c.get('fault')?.succeeded(reply.events !== undefined);
    return respond(c, reply.status, reply.json);
  };
}
