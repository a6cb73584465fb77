import type { AccountName } from '../data/dataset.js';
import { READ_SCOPES, SCOPES, type Scope } from './scopes.js';

export interface ApiKey {
  key: string;
  account: AccountName;
  scopes: ReadonlySet<Scope>;
  revoked: boolean;
  /**
   * Used by many people at once (SANDBOX.md, "Shared keys"), so its Idempotency-Key results belong
   * to the key and the client's address together: strangers never replay or conflict with each
   * other. (Rate-limit buckets are per key and address for every key.) The five default keys are
   * shared; a self-hoster's key is not unless its entry says `"shared": true`, so a CI job retried
   * from another runner replays.
   */
  shared?: boolean;
}

/** The default key table, the one the README lists. These keys are public, so shared by everyone who reads the docs. */
export const DEFAULT_KEYS: readonly ApiKey[] = [
  { key: 'svc_test_sandbox_public', account: 'A', scopes: new Set(SCOPES), revoked: false, shared: true },
  { key: 'svc_test_sandbox_readonly', account: 'A', scopes: new Set(READ_SCOPES), revoked: false, shared: true },
  { key: 'svc_test_sandbox_jobs', account: 'A', scopes: new Set<Scope>(['jobs:read', 'jobs:write']), revoked: false, shared: true },
  { key: 'svc_test_sandbox_other', account: 'B', scopes: new Set(SCOPES), revoked: false, shared: true },
  { key: 'svc_test_sandbox_revoked', account: 'A', scopes: new Set(SCOPES), revoked: true, shared: true },
];

/** What the sandbox says when no key of its table can be used, wherever it would suggest one. */
export const NO_WORKING_KEY_TEXT = "no key of this sandbox's key table can be used (every key is revoked or has no scope)";

/**
 * The key the sandbox shows people (the start-up banner, /docs, /docs/errors, the OpenAPI
 * description, the messages of 401s): the first key of the table that is not revoked, with the
 * most scopes. Undefined when no key can be used (all revoked, or none with a scope), which
 * those places then say.
 */
export function workingKey(keys: readonly ApiKey[]): ApiKey | undefined {
  let best: ApiKey | undefined;
  for (const key of keys) {
    // More scopes than the best so far, which is more than none: a key with no scope is never shown.
    if (!key.revoked && key.scopes.size > (best?.scopes.size ?? 0)) best = key;
  }
  return best;
}

const encoder = new TextEncoder();

/**
 * Finds a key in constant time relative to the presented value: every entry is compared in full,
 * with no early exit on the first differing byte or the first match, so response time says
 * nothing about how much of a key was right.
 */
export class KeyRing {
  /** The key messages suggest (workingKey): a key of this table, never one of another. */
  readonly suggested: ApiKey | undefined;
  readonly #entries: { words: Uint32Array; length: number; key: ApiKey }[];
  /** The presented key, encoded into the same fixed size (one buffer: requests run one at a time). */
  readonly #presented = new Uint8Array(COMPARED_BYTES);
  readonly #presentedWords = new Uint32Array(this.#presented.buffer);

  constructor(keys: readonly ApiKey[]) {
    this.suggested = workingKey(keys);
    this.#entries = keys.map((key) => {
      const bytes = encoder.encode(key.key);
      const padded = new Uint8Array(COMPARED_BYTES);
      padded.set(bytes.subarray(0, COMPARED_BYTES));
      return { words: new Uint32Array(padded.buffer), length: bytes.length, key };
    });
  }

  find(presented: string): ApiKey | undefined {
    // Both sides are exactly COMPARED_BYTES long, zero-padded, compared as words, with the
    // lengths compared apart: reading bytes past the end of a shorter array made V8 leave its
    // fast path, and the key comparison was then the largest cost of a GET (`npm run bench`).
    this.#presented.fill(0);
    const { read, written } = encoder.encodeInto(presented, this.#presented);
    const tooLong = read < presented.length ? 1 : 0;
    let found: ApiKey | undefined;
    for (const entry of this.#entries) {
      const sameLength = ((written ^ entry.length) | tooLong) === 0;
      if (constantTimeEqual(this.#presentedWords, entry.words, COMPARED_WORDS) && sameLength) found = entry.key;
    }
    return found;
  }
}

/** More bytes than any key of a table can have (svc_test_ and at most 200 characters). */
export const COMPARED_BYTES = 256;
const COMPARED_WORDS = COMPARED_BYTES / 4;

/**
 * Equal or not, after reading exactly `count` elements of each side whatever their lengths and
 * contents: the time taken says nothing about a key's length or how much of it was right.
 * Anything longer than `count` is no key of the table, so it never compares equal. The key ring
 * compares its zero-padded keys as 64 words of 32 bits; the same rule holds for bytes.
 */
export function constantTimeEqual(a: ArrayLike<number>, b: ArrayLike<number>, count = COMPARED_BYTES): boolean {
  let difference = (a.length ^ b.length) | (a.length > count ? 1 : 0);
  for (let i = 0; i !== count; i++) difference |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return difference === 0;
}
