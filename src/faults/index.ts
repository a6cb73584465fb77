// Failures on demand (docs/testing-retries.md): the faults a request asks for with Sandbox-Simulate,
// or draws from the configured random faults, and what they do to its answer. The app asks for the
// request's plan right after the key (begin, then actNow for the faults that act before anything
// runs), tells the plan when a write succeeded, and answers through wrap(), which loses, replaces
// or holds the answer. A request without faults costs a begin that returns at once and one look-up.
import { ApiError } from '../errors.js';
import { HeldAnswers } from './held-answers.js';
import { lostAnswer } from './lost-answer.js';
import { FaultPlan } from './plan.js';
import { type RandomFault, RandomFaultStream, type RandomFaults } from './random.js';
import { type FaultRequest, parseSimulate, SIMULATE_HEADER } from './simulate.js';

type Fetch<Env, Ctx> = (request: Request, env?: Env, ctx?: Ctx) => Response | Promise<Response>;

/** What is still to do with a request's answer once the app made it. */
interface Pending {
  plan: FaultPlan;
  /** The request's error answer, through the app's responder (its Request-Id, its headers). */
  answerWith: (error: ApiError) => Response;
}

const RANDOM_SOURCE = 'a random fault of this sandbox, SANDBOX_FAULTS';

export class Faults {
  readonly #stream: RandomFaultStream | undefined;
  readonly #held = new HeldAnswers();
  readonly #pending = new WeakMap<Request, Pending>();

  constructor(random: RandomFaults | null, seed: string) {
    this.#stream = random === null ? undefined : new RandomFaultStream(random, seed);
  }

  /** Each /v1 request draws once, whatever becomes of it, so the sequence decides the faults. */
  draw(): RandomFault | undefined {
    return this.#stream?.draw();
  }

  /**
   * The request's faults, from its own header (which wins) or its random draw; undefined for none.
   * Throws the 400 of a header that cannot be read, and the 429 when every place for a held answer
   * is taken (before anything runs, so nothing is lost).
   */
  begin(
    request: Request,
    header: string | undefined,
    drawn: RandomFault | undefined,
    answerWith: Pending['answerWith'],
  ): FaultPlan | undefined {
    const asked = header !== undefined ? parseSimulate(header) : drawn === undefined ? undefined : requestOf(drawn);
    if (asked === undefined) return undefined;
    const plan = new FaultPlan(asked, header !== undefined ? `${SIMULATE_HEADER}: ${header.trim()}` : RANDOM_SOURCE);
    if (plan.delayMs !== undefined) {
      const place = this.#held.take(plan.delayMs);
      if (place === undefined) throw tooManyHeld();
      plan.held = { place, ms: plan.delayMs };
    }
    this.#pending.set(request, { plan, answerWith });
    return plan;
  }

  /**
   * The faults that act before anything runs: rate_limited, api_error, and the `_after_write`
   * ones on a request that writes nothing (a GET), which then act as api_error.
   */
  actNow(plan: FaultPlan, method: string): void {
    const fault = plan.fault;
    if (fault === 'rate_limited') {
      plan.actsNow();
      throw new ApiError('rate_limited', {
        message: `Too many requests (simulated by ${plan.source}). Retry after 1 second.`,
        headers: { 'Retry-After': '1' },
      });
    }
    const writesNothing = method === 'GET' || method === 'HEAD';
    if (fault === 'api_error' || (writesNothing && (fault === 'api_error_after_write' || fault === 'reset_after_write'))) {
      plan.actsNow();
      const why = fault === 'api_error' ? '' : ` A ${method} writes nothing, so ${fault} acts as api_error.`;
      throw new ApiError('api_error', { message: `Simulated failure (${plan.source}): nothing ran.${why} Safe to retry.` });
    }
  }

  /** The app's fetch, with each answer lost, replaced or held as its request's faults say. */
  wrap<Env, Ctx>(dispatch: Fetch<Env, Ctx>): Fetch<Env, Ctx> {
    return (request, env, ctx) => {
      const answer = dispatch(request, env, ctx);
      // Hono answers every error through onError, so the app's answer never rejects (and a place
      // left taken would lapse at its deadline: HeldAnswers).
      return answer instanceof Promise ? answer.then((response) => this.#finish(request, response)) : this.#finish(request, answer);
    };
  }

  #finish(request: Request, response: Response): Response | Promise<Response> {
    const pending = this.#pending.get(request);
    if (pending === undefined) return response;
    this.#pending.delete(request);
    const { plan } = pending;
    // A lost answer is a promise on Workers, where it needs the length of the answer it replaces.
    let answer: Response | Promise<Response> = response;
    if (plan.wrote && plan.fault === 'api_error_after_write') answer = pending.answerWith(afterWrite(plan, request));
    else if (plan.wrote && plan.fault === 'reset_after_write') answer = lostAnswer(response);
    const { held } = plan;
    if (held === undefined) return answer;
    if (held.ms === 0) {
      this.#held.free(held.place);
      return answer;
    }
    // request.signal only now: on Node, reading it builds the whole web Request.
    return this.#held.hold(held.place, held.ms, request.signal).then(() => answer);
  }
}

function requestOf(drawn: RandomFault): FaultRequest {
  if (drawn.fault === 'delay') {
    return { fault: undefined, delayMs: drawn.delayMs ?? 0, items: [{ text: `delay=${drawn.delayMs ?? 0}`, isDelay: true }] };
  }
  return { fault: drawn.fault, delayMs: undefined, items: [{ text: drawn.fault, isDelay: false }] };
}

/** The 500 that replaces the answer of a write that ran: it says what happened and how to retry. */
function afterWrite(plan: FaultPlan, request: Request): ApiError {
  const retry = request.headers.has('Idempotency-Key')
    ? 'Retry with the same Idempotency-Key and body to get the stored answer (Idempotent-Replayed: true); a retry without it carries the write out again.'
    : 'This request had no Idempotency-Key, so a retry carries the write out again: send one to make retries safe.';
  return new ApiError('api_error', {
    message: `Simulated failure after the write (${plan.source}): the request was carried out (its result stored, its events sent), then its answer was lost. ${retry}`,
  });
}

function tooManyHeld(): ApiError {
  return new ApiError('rate_limited', {
    message: 'Too many answers are held by Sandbox-Simulate: delay (1,000 at once). Retry after 1 second.',
    headers: { 'Retry-After': '1' },
  });
}

export { FaultPlan } from './plan.js';
export type { RandomFaults } from './random.js';
