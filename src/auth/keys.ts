import type { AccountName } from '../data/dataset.js';
import { didYouMean, listOf, shownName, shownValue } from '../http/messages.js';
import { READ_SCOPES, SCOPES, type Scope } from './scopes.js';

export interface ApiKey {
  key: string;
  account: AccountName;
  scopes: ReadonlySet<Scope>;
  revoked: boolean;
}

/** The key table of SANDBOX.md ("Keys and accounts"). These keys are public. */
export const DEFAULT_KEYS: readonly ApiKey[] = [
  { key: 'svc_test_sandbox_public', account: 'A', scopes: new Set(SCOPES), revoked: false },
  { key: 'svc_test_sandbox_readonly', account: 'A', scopes: new Set(READ_SCOPES), revoked: false },
  { key: 'svc_test_sandbox_jobs', account: 'A', scopes: new Set<Scope>(['jobs:read', 'jobs:write']), revoked: false },
  { key: 'svc_test_sandbox_other', account: 'B', scopes: new Set(SCOPES), revoked: false },
  { key: 'svc_test_sandbox_revoked', account: 'A', scopes: new Set(SCOPES), revoked: true },
];

/** An entry as SANDBOX_KEYS shows one in its messages. */
const EXAMPLE_TABLE = '[{"key":"svc_test_mine","account":"A","scopes":"*"}]';
const FIELDS = ['key', 'account', 'scopes', 'revoked'] as const;
const ACCOUNTS = ['A', 'B'] as const;
const KEY_FORM = /^svc_test_[0-9A-Za-z_]{1,200}$/;

/** A key table that cannot be used; its message names the entry and field, as the API's 400s do. */
function tableProblem(detail: string): Error {
  return new Error(`SANDBOX_KEYS is not a valid key table: ${detail}`);
}

function fieldProblem(index: number, field: string, must: string, sent: unknown, choices?: readonly string[]): Error {
  return tableProblem(`entry [${index}]: ${field} ${must}; received ${shownValue(sent)}.${didYouMean(sent, choices)}`);
}

/**
 * Parses SANDBOX_KEYS text; throws with a message for people, since a bad table must stop
 * start-up. On Workers the message is the body of a public 500, so it never repeats a key.
 */
export function parseKeyTable(text: string): ApiKey[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`SANDBOX_KEYS is not valid JSON (${(error as Error).message}); give an array of keys such as ${EXAMPLE_TABLE}`);
  }
  if (!Array.isArray(json)) {
    const hint = json !== null && typeof json === 'object' ? ' Put the one key in brackets: [{…}].' : '';
    throw tableProblem(`it must be a JSON array of keys such as ${EXAMPLE_TABLE}; received ${shownValue(json)}.${hint}`);
  }
  if (json.length === 0) throw tableProblem(`it lists no key; give at least one, such as ${EXAMPLE_TABLE}`);
  const firstIndexOf = new Map<string, number>();
  return json.map((entry: unknown, index): ApiKey => {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      throw tableProblem(`entry [${index}] must be an object with key, account and scopes; received ${shownValue(entry)}.`);
    }
    const fields = entry as Record<string, unknown>;
    for (const name of Object.keys(fields)) {
      if (!(FIELDS as readonly string[]).includes(name)) {
        throw tableProblem(
          `entry [${index}]: unknown field ${shownName(name)}.${didYouMean(name, FIELDS)} The fields are key, account, scopes and revoked.`,
        );
      }
    }
    for (const name of ['key', 'account', 'scopes'] as const) {
      if (fields[name] === undefined) throw tableProblem(`entry [${index}]: ${name} is missing; every key needs key, account and scopes.`);
    }
    const { key, account, scopes, revoked = false } = fields;
    if (typeof key !== 'string' || !KEY_FORM.test(key)) {
      // The value is not repeated: it may be a real key pasted by mistake (a svc_live_ one).
      const sent =
        typeof key === 'string' ? `a string of ${key.length} characters that does not (not shown: it may be a real key)` : shownValue(key);
      throw tableProblem(
        `entry [${index}]: key must begin with svc_test_, then 1 to 200 letters, digits or underscores; received ${sent}.`,
      );
    }
    const first = firstIndexOf.get(key);
    if (first !== undefined) throw tableProblem(`entry [${index}]: key is listed twice (as entry [${first}] too); list each key once.`);
    firstIndexOf.set(key, index);
    if (typeof account !== 'string' || !(ACCOUNTS as readonly string[]).includes(account)) {
      throw fieldProblem(index, 'account', `must be "A" or "B" (sample account A, or the smaller B)`, account, ACCOUNTS);
    }
    if (typeof revoked !== 'boolean') throw fieldProblem(index, 'revoked', 'must be true or false', revoked);
    return { key, account: account as AccountName, scopes: new Set(scopesOf(index, scopes)), revoked };
  });
}

function scopesOf(index: number, scopes: unknown): readonly Scope[] {
  const allowed = `one of the ${SCOPES.length} scopes: ${listOf(SCOPES)}`;
  if (scopes === '*') return SCOPES;
  if (!Array.isArray(scopes)) {
    const wrap = typeof scopes === 'string' && (SCOPES as readonly string[]).includes(scopes) ? ` Put it in an array: ["${scopes}"].` : '';
    throw tableProblem(
      `entry [${index}]: scopes must be "*" (every scope) or an array of scopes, each ${allowed}; received ${shownValue(scopes)}.${wrap}`,
    );
  }
  scopes.forEach((scope: unknown, position) => {
    if (typeof scope !== 'string' || !(SCOPES as readonly string[]).includes(scope)) {
      throw fieldProblem(index, `scopes[${position}]`, `must be ${allowed}`, scope, SCOPES);
    }
  });
  return scopes as Scope[];
}

/**
 * The key the sandbox shows people (the start-up banner, /docs, the OpenAPI description): the
 * first key of the table that is not revoked, with the most scopes. Undefined when no key can
 * be used (all revoked, or none with a scope), which those places then say.
 */
export function workingKey(keys: readonly ApiKey[]): ApiKey | undefined {
  let best: ApiKey | undefined;
  for (const key of keys) {
    if (!key.revoked && key.scopes.size > 0 && key.scopes.size > (best?.scopes.size ?? 0)) best = key;
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
  readonly #entries: { words: Uint32Array; length: number; key: ApiKey }[];
  /** The presented key, encoded into the same fixed size (one buffer: requests run one at a time). */
  readonly #presented = new Uint8Array(COMPARED_BYTES);
  readonly #presentedWords = new Uint32Array(this.#presented.buffer);

  constructor(keys: readonly ApiKey[]) {
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
  for (let i = 0; i < count; i++) difference |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return difference === 0;
}
