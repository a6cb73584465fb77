// Answers held back by `delay` (docs/testing-retries.md): at most 1,000 at once in a process (Node)
// or an isolate (Workers), so a flood of long delays cannot hold memory and sockets without bound.
// A place is taken before the request runs, so a request over the bound is refused before its
// write and nothing is lost; it is given back when the answer goes, or at once when the client
// disconnects. On Workers a request whose client went away may never resume, so every place also
// lapses on its own at its deadline.

/** The bound of held answers per process or isolate. */
export const MAX_HELD_ANSWERS = 1_000;

export class HeldAnswers {
  readonly #max: number;
  readonly #now: () => number;
  /** Each place taken, with the time by which it is surely free. */
  readonly #places = new Map<symbol, number>();

  constructor(max = MAX_HELD_ANSWERS, now: () => number = Date.now) {
    this.#max = max;
    this.#now = now;
  }

  /** A place for an answer held `ms`, or undefined when every place is taken. */
  take(ms: number): symbol | undefined {
    if (this.#places.size >= this.#max) this.#sweep();
    if (this.#places.size >= this.#max) return undefined;
    const place = Symbol('held answer');
    // A second of slack past the deadline for the request's own run time.
    this.#places.set(place, this.#now() + ms + 1_000);
    return place;
  }

  /**
   * Waits `ms` (less if `signal` aborts: the client is gone), then frees the place. `ms` is more
   * than 0: an answer held 0 ms only frees its place.
   */
  async hold(place: symbol, ms: number, signal: AbortSignal): Promise<void> {
    try {
      if (!signal.aborted) {
        // An abort comes once; a listener left after the time is up goes with the request.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, ms);
          signal.addEventListener('abort', () => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    } finally {
      this.free(place);
    }
  }

  free(place: symbol): void {
    this.#places.delete(place);
  }

  /** Drops places past their deadline (only when the bound is reached: O(n) then, O(1) else). */
  #sweep(): void {
    const now = this.#now();
    for (const [place, deadline] of this.#places) if (deadline <= now) this.#places.delete(place);
  }
}
