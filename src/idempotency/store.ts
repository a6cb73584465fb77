// The Idempotency-Key store behind a small interface (docs/behaviour.md, "Idempotency"; docs/workers.md): in memory and
// bounded on Node; a Durable Object shared by every instance on Workers.

/** A response as stored for replay: status and body bytes exactly as first sent. */
export interface StoredResponse {
  status: number;
  body: string;
}

export type IdempotencyClaim =
  /** First use of the key: run the request, then `complete` or `release`. */
  | { state: 'new' }
  | { state: 'replay'; response: StoredResponse }
  /** Same key with another method, path or body. */
  | { state: 'mismatch' }
  /** Same key while its first request is still running. */
  | { state: 'in_flight' };

export interface IdempotencyStore {
  /** Claims `key` (already scoped to the API key) for a request whose fingerprint is given. */
  claim(key: string, fingerprint: string): Promise<IdempotencyClaim>;
  /** Stores the result of a claimed request for replay. */
  complete(key: string, fingerprint: string, response: StoredResponse): Promise<void>;
  /** Forgets a claim whose request was not stored (a 400 or a 500), so a retry runs again. */
  release(key: string): Promise<void>;
}

/** An Idempotency-Key is kept 24 hours. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** An Idempotency-Key is 1 to 255 characters (docs/behaviour.md, "Limits beyond the reference"). */
export const IDEMPOTENCY_KEY_MAX = 255;
