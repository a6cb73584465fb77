// Delivers the events of writes to the operator's receiver (docs/events-from-writes.md),
// with trigger's code: the same signature and the same retries with growing gaps (deliver.ts).
// Bounded, so a receiver that is down cannot make memory grow: a few deliveries in flight, a
// short queue behind them, and when the queue is full the oldest waiting event is dropped and
// logged. Nothing here can delay or change the answer of the write: emit() only enqueues.
import { type DeliveryAttempt, deliver } from './deliver.js';
import { type SignedWebhookTarget, wantsEvent } from './target.js';
import type { EventSink, WriteEvent } from './write-events.js';

export interface DispatcherOptions {
  /** Deliveries (with their retries) at once; default 4. */
  maxInFlight?: number;
  /** Events waiting behind them; default 100. */
  maxQueued?: number;
  /** Tries per event (default 5), the gap before the second (default 1 s, doubling), per try time-out (10 s). */
  attempts?: number;
  backoffMs?: number;
  timeoutMs?: number;
  userAgent?: string;
  /** Told each attempt (`--log`). */
  onAttempt?: (event: WriteEvent, attempt: DeliveryAttempt) => void;
  /** Told what must always be said: a dropped event, an event given up on or abandoned at shutdown. */
  warn?: (message: string) => void;
}

const DROP_REPORT_INTERVAL_MS = 5_000;
/** Events an abandonment line names; the rest are counted. */
const ABANDONED_SHOWN = 10;

interface Queued {
  event: WriteEvent;
  done: () => void;
}

export class WebhookDispatcher implements EventSink {
  readonly #target: SignedWebhookTarget;
  readonly #options: DispatcherOptions & Required<Pick<DispatcherOptions, 'maxInFlight' | 'maxQueued' | 'warn'>>;
  readonly #queue: Queued[] = [];
  /** Deliveries in flight, with their events (named if abandoned at shutdown). */
  readonly #running = new Map<Promise<void>, WriteEvent>();
  #pumpScheduled = false;
  /** Events emitted for later (the second delivery of duplicate_event), not yet queued. */
  readonly #waiting = new Set<WriteEvent>();
  /** Drops since the last line about them: a flood must not become a flood of log lines. */
  #dropsUnreported = 0;
  #lastDropReport = Number.NEGATIVE_INFINITY;

  constructor(target: SignedWebhookTarget, options: DispatcherOptions = {}) {
    this.#target = target;
    this.#options = {
      ...options,
      maxInFlight: options.maxInFlight ?? 4,
      maxQueued: options.maxQueued ?? 100,
      warn: options.warn ?? ((message) => console.error(message)),
    };
  }

  emit(event: WriteEvent, afterMs = 0): Promise<void> | undefined {
    if (!wantsEvent(this.#target, event.type)) return undefined;
    if (afterMs > 0) {
      // Counted as pending while it waits, so idle() (a shutdown, sandbox.deliveries()) waits too.
      const waiting = { ...event };
      this.#waiting.add(waiting);
      return new Promise<void>((resolve) => setTimeout(resolve, afterMs)).then(() => {
        this.#waiting.delete(waiting);
        return this.emit(event);
      });
    }
    return new Promise<void>((done) => {
      if (this.#queue.length >= this.#options.maxQueued) {
        const dropped = this.#queue.shift() as Queued;
        this.#reportDrop(dropped.event);
        dropped.done();
      }
      this.#queue.push({ event, done });
      this.#schedule();
    });
  }

  /**
   * Deliveries start on a later turn of the event loop, never inside the write: fetch() does
   * much of its work before it returns a promise (measured: +0.65 ms on a write's p50 when
   * started at once), and the answer must go out first.
   */
  #schedule(): void {
    if (this.#pumpScheduled) return;
    this.#pumpScheduled = true;
    setTimeout(() => {
      this.#pumpScheduled = false;
      this.#next();
    }, 0);
  }

  /** The first drop at once, then at most one line every 5 s with the count since the last. */
  #reportDrop(event: WriteEvent): void {
    this.#dropsUnreported++;
    const now = Date.now();
    if (now - this.#lastDropReport < DROP_REPORT_INTERVAL_MS) return;
    const what =
      this.#dropsUnreported === 1 ? `${event.type} ${event.id}` : `${this.#dropsUnreported} events, the last ${event.type} ${event.id}`;
    this.#options.warn(`webhook: dropped ${what}: ${this.#options.maxQueued} events already wait for ${this.#target.url}`);
    this.#dropsUnreported = 0;
    this.#lastDropReport = now;
  }

  /** Deliveries in flight and waiting. */
  get pending(): number {
    return this.#running.size + this.#queue.length + this.#waiting.size;
  }

  /**
   * Says which events will never be delivered because the process is stopping: those in flight,
   * queued or waiting when the shutdown's grace ran out. Nothing when every one was delivered.
   */
  reportAbandoned(): void {
    const events = [...this.#running.values(), ...this.#queue.map((queued) => queued.event), ...this.#waiting];
    if (events.length === 0) return;
    const shown = events.slice(0, ABANDONED_SHOWN).map((event) => `${event.type} ${event.id}`);
    const more = events.length > ABANDONED_SHOWN ? ` and ${events.length - ABANDONED_SHOWN} more` : '';
    this.#options.warn(
      `webhook: stopping with ${events.length === 1 ? '1 event' : `${events.length} events`} not delivered to ${this.#target.url}, abandoned: ${shown.join(', ')}${more}`,
    );
  }

  /** Resolves when nothing is in flight or waiting, or after `timeoutMs` (a shutdown's grace). */
  async idle(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.pending > 0 && Date.now() < deadline) {
      // Waiting events start on the next turn: look again soon rather than at the deadline.
      const wait = this.#running.size === 0 ? 5 : Math.max(0, deadline - Date.now());
      await Promise.race([...this.#running.keys(), new Promise((resolve) => setTimeout(resolve, wait))]);
    }
  }

  #next(): void {
    while (this.#running.size < this.#options.maxInFlight && this.#queue.length > 0) {
      const { event, done } = this.#queue.shift() as Queued;
      const running: Promise<void> = this.#deliver(event).finally(() => {
        this.#running.delete(running);
        done();
        this.#next();
      });
      this.#running.set(running, event);
    }
  }

  #deliver(event: WriteEvent): Promise<void> {
    return deliverEvent(this.#target, event, this.#options);
  }
}

/**
 * Each request's events delivered within that request, for Workers: there a promise of one
 * request must not be settled by another, and the runtime bounds what each request runs after
 * its answer (waitUntil), so no queue is shared. Deliveries start on a later turn, as above.
 */
export class RequestScopedDelivery implements EventSink {
  readonly #target: SignedWebhookTarget;
  readonly #options: DispatcherOptions;

  constructor(target: SignedWebhookTarget, options: DispatcherOptions = {}) {
    this.#target = target;
    this.#options = options;
  }

  emit(event: WriteEvent, afterMs = 0): Promise<void> | undefined {
    if (!wantsEvent(this.#target, event.type)) return undefined;
    return new Promise((resolve) => setTimeout(resolve, afterMs)).then(() => deliverEvent(this.#target, event, this.#options));
  }
}

/** A receiver that checks signatures answers 400 or 401 to one signed with another secret. */
export function refusedSignature(status: number): boolean {
  return status === 400 || status === 401;
}

const SECRET_HINT =
  "the receiver may have refused the signature: it must verify with the sandbox's signing secret (the one given with --webhook-secret, SANDBOX_WEBHOOK_SECRET or createSandbox({ webhook: { secret } }), or the one the sandbox printed at start)";

/** One event with trigger's retries; an event given up on is said, whatever the log setting. */
async function deliverEvent(target: SignedWebhookTarget, event: WriteEvent, options: DispatcherOptions): Promise<void> {
  const attempts = options.attempts ?? 5;
  const onAttempt = options.onAttempt;
  const result = await deliver(event.body, {
    url: target.url,
    secret: target.secret,
    attempts,
    backoffMs: options.backoffMs ?? 1_000,
    timeoutMs: options.timeoutMs ?? 10_000,
    userAgent: options.userAgent ?? 'waste-operations-sandbox',
    ...(onAttempt === undefined ? {} : { onAttempt: (attempt: DeliveryAttempt) => onAttempt(event, attempt) }),
  });
  if (!result.delivered) {
    const last = result.attempts.at(-1);
    const why = last?.status !== undefined ? `answered ${last.status}` : (last?.error ?? 'no answer');
    const hint = last?.status !== undefined && refusedSignature(last.status) ? `; ${SECRET_HINT}` : '';
    (options.warn ?? console.error)(
      `webhook: gave up on ${event.type} ${event.id} after ${attempts} attempts to ${target.url} (${why})${hint}`,
    );
  }
}

/** A --log line for one attempt: `webhook job.created evt_… → 200 in 12 ms (attempt 1)`. */
export function describeDelivery(event: WriteEvent, attempt: DeliveryAttempt): string {
  const outcome = attempt.status !== undefined ? String(attempt.status) : (attempt.error ?? 'no answer');
  return `webhook ${event.type} ${event.id} → ${outcome} in ${attempt.ms} ms (attempt ${attempt.attempt})`;
}
