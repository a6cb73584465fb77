// The events of a write that ran and succeeded (not a replay, not an error) go to the sink
// (SANDBOX.md, "Events from writes"): once, twice under `duplicate_event` (the same bytes, about a
// second apart), after the write's result is stored under its Idempotency-Key. On Workers the
// delivery runs after the answer (waitUntil).
import type { Context } from 'hono';
import type { MintOf } from '../http/clock.js';
import type { SandboxEnv } from '../http/env.js';
import { DUPLICATE_GAP_MS } from '../faults/plan.js';
import { type EventSink, writeEvent } from '../webhooks/write-events.js';
import type { Step } from './step.js';

export function emitEvents(events: EventSink | null, mintOf: MintOf): Step {
  return async (c, next) => {
    const response = await next();
    // Set by the handler only when it answered; a replay or an error leaves it unset.
    const reply = c.get('reply');
    if (events === null || reply?.events === undefined) return response;
    const plan = c.get('fault');
    for (const type of reply.events) {
      // A reply with events is a write's, whose JSON is text (a read's bytes emit nothing).
      const event = writeEvent(mintOf(c), type, reply.json);
      const pending = events.emit(event);
      if (pending !== undefined) waitUntil(c, pending);
      const again = plan?.duplicatesEvents === true ? events.emit(event, DUPLICATE_GAP_MS) : undefined;
      if (again !== undefined) waitUntil(c, again);
    }
    return response;
  };
}

/** Workers keep the isolate for work after the answer only when told; Node has no such context. */
function waitUntil(c: Context<SandboxEnv>, work: Promise<void>): void {
  let executionCtx: { waitUntil(promise: Promise<unknown>): void } | undefined;
  try {
    executionCtx = c.executionCtx;
  } catch {
    return;
  }
  executionCtx.waitUntil(work);
}
