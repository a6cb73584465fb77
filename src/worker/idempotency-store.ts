import type { IdempotencyClaim, IdempotencyStore, StoredResponse } from '../idempotency/store.js';
import type { IdempotencyObject } from './idempotency-object.js';
import { objectName } from './object-name.js';
import { sha256Hex } from './sha256-hex.js';

/**
 * The IdempotencyStore of the Worker: each key is its own Durable Object, reached over RPC, so
 * every isolate in every location shares one answer per key (docs/workers.md).
 */
export class DurableObjectIdempotencyStore implements IdempotencyStore {
  readonly #namespace: DurableObjectNamespace<IdempotencyObject>;

  constructor(namespace: DurableObjectNamespace<IdempotencyObject>) {
    this.#namespace = namespace;
  }

  // The object keeps the SHA-256 of the fingerprint, not the fingerprint: two requests are the
  // same exactly when their fingerprints are, and the fingerprint of a 1 MiB body is 1 MiB of
  // text that was sent to the object at the claim and again with the answer, and written each
  // time: about 3 ms of the CPU of the heaviest create (docs/workers.md).
  async claim(key: string, fingerprint: string): Promise<IdempotencyClaim> {
    return (await this.#object(key)).claim(await sha256Hex(fingerprint));
  }

  async complete(key: string, fingerprint: string, response: StoredResponse): Promise<void> {
    await (await this.#object(key)).complete(await sha256Hex(fingerprint), response);
  }

  async release(key: string): Promise<void> {
    await (await this.#object(key)).release();
  }

  async #object(key: string): Promise<DurableObjectStub<IdempotencyObject>> {
    return this.#namespace.getByName(await idempotencyObjectName(key));
  }
}

/**
 * The object that holds `key`, as src/http/idempotency.ts builds it: the API key, and on a shared
 * key the client's CF-Connecting-IP, then the Idempotency-Key. So each stranger on a public key
 * has objects of their own, and never reaches another's stored answer or in-flight claim.
 */
export async function idempotencyObjectName(key: string): Promise<string> {
  return objectName('idempotency', key);
}
