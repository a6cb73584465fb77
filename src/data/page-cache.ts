/**
 * Encoded list pages by query, bounded by their total size: the sample data never changes, so a
 * page once built is right for as long as the process lives, and CI asks for the same pages over
 * and over. The oldest entries go first once `maxBytes` is reached.
 */
export class PageCache {
  readonly #pages = new Map<string, Uint8Array<ArrayBuffer>>();
  readonly #maxBytes: number;
  #bytes = 0;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  get bytes(): number {
    return this.#bytes;
  }

  get(key: string): Uint8Array<ArrayBuffer> | undefined {
    return this.#pages.get(key);
  }

  set(key: string, page: Uint8Array<ArrayBuffer>): void {
    if (page.byteLength > this.#maxBytes || this.#pages.has(key)) return;
    this.#pages.set(key, page);
    this.#bytes += page.byteLength;
    for (const [oldest, bytes] of this.#pages) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#pages.delete(oldest);
      this.#bytes -= bytes.byteLength;
    }
  }
}
