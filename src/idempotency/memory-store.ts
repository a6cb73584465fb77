import { IDEMPOTENCY_TTL_MS, type IdempotencyClaim, type IdempotencyStore, type StoredResponse } from './store.js';

interface Entry {
  fingerprint: string;
  response: StoredResponse | null;
  expiresAt: number;
  bytes: number;
}

export interface MemoryStoreLimits {
  /** Most entries kept; the oldest go first. */
  maxEntries?: number;
  /** Most bytes of keys, fingerprints and bodies kept (approximate: UTF-16 length × 2). */
  maxBytes?: number;
  ttlMs?: number;
  now?: () => number;
}

/**
 * Bounds of the Node store. Bytes are counted as UTF-16 (twice the characters) for keys,
 * fingerprints (which hold the request body) and stored response bodies, an overestimate for
 * the ASCII they mostly are; 8 MiB keeps a flood of distinct keys with the largest bodies a
 * write accepts within the sandbox's 64 MiB memory ceiling (README, "Memory bounds").
 */
export const IDEMPOTENCY_MAX_ENTRIES = 10_000;
export const IDEMPOTENCY_MAX_BYTES = 8 * 1024 * 1024;

/**
 * The Node store: a Map in insertion order, so the oldest entry is always first and eviction is
 * O(1). Bounded by count and by bytes however many distinct keys arrive; entries expire after
 * 24 hours. Losing an old entry early only means a very late retry runs again, which is safe in a
 * sandbox that keeps nothing.
 */
export class MemoryIdempotencyStore implements IdempotencyStore {
  readonly #entries = new Map<string, Entry>();
  readonly #maxEntries: number;
  readonly #maxBytes: number;
  readonly #ttlMs: number;
  readonly #now: () => number;
  #bytes = 0;

  constructor(limits: MemoryStoreLimits = {}) {
    this.#maxEntries = limits.maxEntries ?? IDEMPOTENCY_MAX_ENTRIES;
    this.#maxBytes = limits.maxBytes ?? IDEMPOTENCY_MAX_BYTES;
    this.#ttlMs = limits.ttlMs ?? IDEMPOTENCY_TTL_MS;
    this.#now = limits.now ?? Date.now;
  }

  get size(): number {
    return this.#entries.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  async claim(key: string, fingerprint: string): Promise<IdempotencyClaim> {
    const now = this.#now();
    const entry = this.#entries.get(key);
    if (entry !== undefined && entry.expiresAt > now) {
      if (entry.fingerprint !== fingerprint) return { state: 'mismatch' };
      return entry.response === null ? { state: 'in_flight' } : { state: 'replay', response: entry.response };
    }
    if (entry !== undefined) this.#delete(key, entry);
    this.#insert(key, { fingerprint, response: null, expiresAt: now + this.#ttlMs, bytes: (key.length + fingerprint.length) * 2 });
    return { state: 'new' };
  }

  async complete(key: string, fingerprint: string, response: StoredResponse): Promise<void> {
    const entry = this.#entries.get(key);
    if (entry !== undefined) this.#delete(key, entry);
    this.#insert(key, {
      fingerprint,
      response,
      expiresAt: this.#now() + this.#ttlMs,
      bytes: (key.length + fingerprint.length + response.body.length) * 2,
    });
  }

  async release(key: string): Promise<void> {
    const entry = this.#entries.get(key);
    if (entry !== undefined) this.#delete(key, entry);
  }

  #insert(key: string, entry: Entry): void {
    this.#entries.set(key, entry);
    this.#bytes += entry.bytes;
    this.#evict();
  }

  #delete(key: string, entry: Entry): void {
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }

  #evict(): void {
    const now = this.#now();
    for (const [key, entry] of this.#entries) {
      const over = this.#entries.size > this.#maxEntries || this.#bytes > this.#maxBytes;
      if (!over && entry.expiresAt > now) break;
      this.#delete(key, entry);
    }
  }
}
