// What an answer makes that the sample data does not hold: its time, new record IDs, a webhook
// secret, the request ID. With the clock running they come from the clock and chance; with the
// clock pinned, from the pinned time and the request (docs/snapshot-tests.md). Handlers ask the
// mint and never know which it is. The clock owns how IDs are made: the HTTP layer asks it.
import { newId, newWebhookSecret, timestamp } from '../schemas/new-records.js';
import { ID_BODY_LENGTH, ID_PREFIXES, type ObjectType } from '../schemas/common.js';
import { randomBase62 } from '../random-text.js';
import { derivationRoot, derivationRootAsync, deriveBase62, type RequestMaterial } from './derive.js';

export interface Mint {
  /** The time of the answer: the real clock's reading, or the pinned time. */
  readonly now: Date;
  /** The pinned time as the API writes it; undefined while the clock runs. */
  readonly pinned: string | undefined;
  /** A new record's ID: the nth of its type in this answer, derived when pinned. */
  id(object: ObjectType): string;
  /** A new webhook endpoint's whsec_ secret. */
  webhookSecret(): string;
  /** The request's `req_` ID (body and Request-Id header). */
  requestId(): string;
  /** Makes ready what the values need, once the request's body is read (a pinned mint's root). */
  prepare?(): Promise<void>;
}

/** `req_` and 24 random base-62 characters (~142 bits); the same value as the Request-Id header. */
export function newRequestId(): string {
  return `req_${randomBase62(24)}`;
}

/** The running clock: one object for every request, its time read when asked. */
export function runningMint(clock: () => Date): Mint {
  return {
    get now() {
      return clock();
    },
    pinned: undefined,
    id: newId,
    webhookSecret: newWebhookSecret,
    requestId: newRequestId,
  };
}

/**
 * The pinned clock for one request. The root is computed on first use from what the request has
 * said by then (the app reads the body before a handler mints anything), and the labels count,
 * so two containers made by one answer would get two IDs.
 */
export class PinnedMint implements Mint {
  readonly now: Date;
  readonly pinned: string;
  readonly #seed: string;
  readonly #material: () => Omit<RequestMaterial, 'time'>;
  readonly #counts = new Map<string, number>();
  #root: Uint8Array | undefined;

  constructor(seed: string, time: Date, material: () => Omit<RequestMaterial, 'time'>) {
    this.now = time;
    this.pinned = timestamp(time);
    this.#seed = seed;
    this.#material = material;
  }

  id(object: ObjectType): string {
    return `${ID_PREFIXES[object]}_${this.#derive(object, ID_BODY_LENGTH)}`;
  }

  webhookSecret(): string {
    return `whsec_${this.#derive('whsec', 32)}`;
  }

  requestId(): string {
    return `req_${this.#derive('request_id', 24)}`;
  }

  /**
   * Computes the root now, once the request has said all it will (its body read), where only an
   * asynchronous HMAC is native (derivationRootAsync). The same root as on first use.
   */
  async prepare(): Promise<void> {
    this.#root ??= await derivationRootAsync(this.#seed, { ...this.#material(), time: this.pinned });
  }

  #derive(kind: string, length: number): string {
    this.#root ??= derivationRoot(this.#seed, { ...this.#material(), time: this.pinned });
    const count = (this.#counts.get(kind) ?? 0) + 1;
    this.#counts.set(kind, count);
    return deriveBase62(this.#root, `${kind}#${count}`, length);
  }
}
