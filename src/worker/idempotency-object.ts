// The Idempotency-Key store on Workers, shared by every instance (docs/workers.md). One object
// per (API key, Idempotency-Key): Cloudflare runs
// each object in exactly one place, so a retry that lands on another isolate or in another
// location reaches the same state and replays or conflicts exactly as the in-memory store does
// on Node (src/idempotency/memory-store.ts).
import { DurableObject } from 'cloudflare:workers';
import { IDEMPOTENCY_TTL_MS, type IdempotencyClaim, type StoredResponse } from '../idempotency/store.js';

/**
 * How long a claim without a result blocks its key. On Node an in-flight claim lives as long as
 * the process running it; on Workers the isolate running the request can die without releasing
 * (CPU limit, deploy), and the key would then answer 409 for a whole day. No sandbox request runs
 * anywhere near a minute, so a live claim never expires early.
 */
export const IN_FLIGHT_LEASE_MS = 60_000;

/** The one row an object holds: `status` and `body` are null while the request runs. */
export interface IdempotencyRow extends Record<string, SqlStorageValue> {
  /** The SHA-256, in hex, of the request's fingerprint (src/worker/idempotency-store.ts). */
  fingerprint: string;
  status: number | null;
  body: string | null;
  expires_at: number;
}

export class IdempotencyObject extends DurableObject {
  #tableReady = false;

  /**
   * Reads and writes are synchronous SQLite calls with no await between them, so two claims of
   * the same key can never both see it unclaimed.
   */
  async claim(fingerprint: string): Promise<IdempotencyClaim> {
    const now = Date.now();
    const row = this.#read();
    if (row !== undefined && row.expires_at > now) {
      if (row.fingerprint !== fingerprint) return { state: 'mismatch' };
      if (row.status === null || row.body === null) return { state: 'in_flight' };
      return { state: 'replay', response: { status: row.status, body: row.body } };
    }
    await this.#write(fingerprint, null, now + IN_FLIGHT_LEASE_MS);
    return { state: 'new' };
  }

  /** Keeps the result for 24 hours from now: an Idempotency-Key is kept 24 hours, as on Node. */
  async complete(fingerprint: string, response: StoredResponse): Promise<void> {
    await this.#write(fingerprint, response, Date.now() + IDEMPOTENCY_TTL_MS);
  }

  /** A 400 or a 500 is not stored, so a retry runs again: forget the claim entirely. */
  async release(): Promise<void> {
    await this.#forget();
  }

  /** Retention: the alarm set at the expiry deletes the object's storage. */
  override async alarm(): Promise<void> {
    const row = this.#read();
    if (row !== undefined && row.expires_at > Date.now()) {
      // A later write moved the expiry after this alarm was scheduled.
      await this.ctx.storage.setAlarm(row.expires_at);
      return;
    }
    await this.#forget();
  }

  #read(): IdempotencyRow | undefined {
    this.#ensureTable();
    return this.ctx.storage.sql
      .exec<IdempotencyRow>('SELECT fingerprint, status, body, expires_at FROM idempotency WHERE id = 1')
      .toArray()[0];
  }

  async #write(fingerprint: string, response: StoredResponse | null, expiresAt: number): Promise<void> {
    this.#ensureTable();
    this.ctx.storage.sql.exec(
      'INSERT OR REPLACE INTO idempotency (id, fingerprint, status, body, expires_at) VALUES (1, ?, ?, ?, ?)',
      fingerprint,
      response?.status ?? null,
      response?.body ?? null,
      expiresAt,
    );
    await this.ctx.storage.setAlarm(expiresAt);
  }

  /**
   * With a compatibility date of 2026-02-24 or later, deleteAll() removes the alarm too, leaving
   * the object with no storage at all (nothing is billed for it).
   */
  async #forget(): Promise<void> {
    await this.ctx.storage.deleteAll();
    this.#tableReady = false;
  }

  #ensureTable(): void {
    if (this.#tableReady) return;
    this.ctx.storage.sql.exec(
      `CREATE TABLE IF NOT EXISTS idempotency (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        fingerprint TEXT NOT NULL,
        status INTEGER,
        body TEXT,
        expires_at INTEGER NOT NULL
      )`,
    );
    this.#tableReady = true;
  }
}
