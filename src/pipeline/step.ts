// The shape of a step of the order of checks, and the one place steps are put in a row. A step
// returns nothing to go on (by calling `next`), a Response to answer now, or throws an ApiError;
// a step that wraps the rest (the Idempotency-Key, the events of a write) awaits `next()` for the
// answer the later steps made. Hono's own middleware chain would do, but each of its layers costs
// an async frame and a try/catch: ten of them added 5 µs to a request of 20 (measured in-process,
// interleaved), so the app gives Hono two layers, the steps of every /v1 request and those of each
// endpoint, and the steps inside each run as plain calls.
import type { Context, MiddlewareHandler } from 'hono';
import type { SandboxEnv } from '../http/env.js';

export type StepResult = Response | undefined | Promise<Response | undefined>;
export type Next = () => StepResult;
export type Step = (c: Context<SandboxEnv>, next: Next) => StepResult;

/** The steps as one Hono handler: each runs when the one before it calls `next`; the last `next` is Hono's. */
export function inOrder(...steps: readonly Step[]): MiddlewareHandler<SandboxEnv> {
  return ((c: Context<SandboxEnv>, honoNext?: () => Promise<void>): StepResult => {
    const run = (index: number): StepResult => {
      const step = steps[index];
      if (step === undefined) return honoNext?.() as Promise<undefined> | undefined;
      return step(c, () => run(index + 1));
    };
    return run(0);
  }) as MiddlewareHandler<SandboxEnv>;
}
