// One request's faults once its key is known: what it asked for (Sandbox-Simulate, or a random
// fault), what is in effect so far (the Sandbox-Fault header), and whether its write ran. Kept on
// the request's context; the app tells it when a write succeeded, and the responder reads the
// header from it, so every answer of a fault or a delay says so.
import type { Fault, FaultRequest } from './simulate.js';

/** Gap between the two deliveries of a duplicated event: a receiver sees them apart, as retries come. */
export const DUPLICATE_GAP_MS = 1_000;

export class FaultPlan {
  readonly fault: Fault | undefined;
  readonly delayMs: number | undefined;
  /** Where the fault came from, for messages: the header, or the random faults of the configuration. */
  readonly source: string;
  /** Sandbox-Fault: the items in effect, as sent, comma-separated; undefined while none is. */
  header: string | undefined;
  /** Set once the request's write ran and succeeded (not a replay, not an error of its own). */
  wrote = false;
  /** A delay's place among the held answers (HeldAnswers), taken before the request runs, and its ms. */
  held: { place: symbol; ms: number } | undefined;
  readonly #items: FaultRequest['items'];

  constructor(request: FaultRequest, source: string) {
    this.fault = request.fault;
    this.delayMs = request.delayMs;
    this.source = source;
    this.#items = request.items;
    // A delay applies to whatever is answered.
    this.#inEffect(false);
  }

  /** The fault acts at once: before anything runs. */
  actsNow(): void {
    this.#inEffect(true);
  }

  /**
   * The write ran and succeeded: an `_after_write` fault now replaces its answer, and
   * duplicate_event doubles the events it emits (when it emits any).
   */
  succeeded(emitsEvents: boolean): void {
    this.wrote = true;
    // rate_limited and api_error acted before anything ran; without a fault (a delay alone) the
    // header is the same either way.
    this.#inEffect(this.fault !== 'duplicate_event' || emitsEvents);
  }

  get duplicatesEvents(): boolean {
    return this.fault === 'duplicate_event';
  }

  #inEffect(withFault: boolean): void {
    const items = this.#items.filter((item) => item.isDelay || withFault).map((item) => item.text);
    this.header = items.length === 0 ? undefined : items.join(', ');
  }
}
