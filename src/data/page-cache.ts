export interface PageCacheOptions {
  /** Most pages kept, however small (the keys and the Map's own entries weigh too). */
  maxEntries?: number;
  /**
   * A page is dropped this long after it was built. The sample data never changes, so this is
   * for memory only: a flood of distinct queries leaves nothing behind once it has passed.
   */
  maxAgeMs?: number;
  now?: () => number;
}

interface Page {
  body: Uint8Array<ArrayBuffer>;
  builtAt: number;
  bytes: number;
}

/** What one entry costs beyond its page: the key (UTF-16) and the Map entry and page record. */
const ENTRY_OVERHEAD_BYTES = 128;

/**
 * Encoded list pages by query, bounded by their total size and count: the sample data never
 * changes, so a page once built is right for as long as the process lives, and CI asks for the
 * same pages over and over. The oldest entries go first once a bound is reached, and entries
 * older than `maxAgeMs` are dropped whenever a new page is built (a cache miss), so reads that
 * hit the cache never look at the clock.
 */
export class PageCache {
  readonly #pages = new Map<string, Page>();
  /** Keys missed once, the doorkeeper of admission; cleared whenever it reaches maxEntries. */
  readonly #seen = new Set<string>();
  #seenSince = 0;
  readonly #maxBytes: number;
  readonly #maxEntries: number;
  readonly #maxAgeMs: number;
  readonly #now: () => number;
  #bytes = 0;

  constructor(maxBytes: number, options: PageCacheOptions = {}) {
    this.#maxBytes = maxBytes;
    this.#maxEntries = options.maxEntries ?? 4096;
    this.#maxAgeMs = options.maxAgeMs ?? 60_000;
    // Date.now looked up at each call, not kept: a test's fake clock applies whenever it is installed.
    this.#now = options.now ?? (() => Date.now());
  }

  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#pages.size;
  }

  get(key: string): Uint8Array<ArrayBuffer> | undefined {
    return this.#pages.get(key)?.body;
  }

  set(key: string, body: Uint8Array<ArrayBuffer>): void {
    const now = this.#now();
    // Admitted on its second miss only: a query seen once (a flood of distinct queries) is not
    // cached, so its page dies young and is freed at the next scavenge, instead of being
    // promoted to the old generation and evicted there, where only a full gc frees it. The
    // doorkeeper forgets everything at maxEntries keys or maxAgeMs, so it is bounded too.
    if (this.#seen.size >= this.#maxEntries || now - this.#seenSince >= this.#maxAgeMs) {
      this.#seen.clear();
      this.#seenSince = now;
    }
    const bytes = body.byteLength + key.length * 2 + ENTRY_OVERHEAD_BYTES;
    if (!this.#seen.has(key)) this.#seen.add(key);
    else if (bytes <= this.#maxBytes && !this.#pages.has(key)) {
      this.#seen.delete(key);
      this.#pages.set(key, { body, builtAt: now, bytes });
      this.#bytes += bytes;
    }
    // Insertion order is age order: the oldest page is always first.
    for (const [oldest, page] of this.#pages) {
      const over = this.#bytes > this.#maxBytes || this.#pages.size > this.#maxEntries;
      if (!over && now - page.builtAt < this.#maxAgeMs) break;
      this.#pages.delete(oldest);
      this.#bytes -= page.bytes;
    }
  }
}
