import { z } from 'zod';
import type { AccountName } from '../data/dataset.js';
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

/** The form of SANDBOX_KEYS: a JSON array that replaces the whole table. */
const KeyTableInput = z
  .array(
    z.strictObject({
      key: z.string().regex(/^svc_test_[0-9A-Za-z_]{1,200}$/, 'sandbox keys begin with svc_test_'),
      account: z.enum(['A', 'B']),
      scopes: z.union([z.literal('*'), z.array(z.enum(SCOPES))]),
      revoked: z.boolean().default(false),
    }),
  )
  .min(1);

/** Parses SANDBOX_KEYS text; throws with a readable message, since a bad table must stop start-up. */
export function parseKeyTable(text: string): ApiKey[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('SANDBOX_KEYS is not valid JSON');
  }
  const parsed = KeyTableInput.safeParse(json);
  if (!parsed.success) throw new Error(`SANDBOX_KEYS is not a valid key table: ${z.prettifyError(parsed.error)}`);
  const seen = new Set<string>();
  return parsed.data.map((entry) => {
    if (seen.has(entry.key)) throw new Error(`SANDBOX_KEYS lists ${entry.key} twice`);
    seen.add(entry.key);
    return {
      key: entry.key,
      account: entry.account,
      scopes: new Set(entry.scopes === '*' ? SCOPES : entry.scopes),
      revoked: entry.revoked,
    };
  });
}

const encoder = new TextEncoder();

/**
 * Finds a key in constant time relative to the presented value: every entry is compared in full,
 * with no early exit on the first differing byte or the first match, so response time says
 * nothing about how much of a key was right.
 */
export class KeyRing {
  readonly #entries: { bytes: Uint8Array; key: ApiKey }[];

  constructor(keys: readonly ApiKey[]) {
    this.#entries = keys.map((key) => ({ bytes: encoder.encode(key.key), key }));
  }

  find(presented: string): ApiKey | undefined {
    const bytes = encoder.encode(presented);
    let found: ApiKey | undefined;
    for (const entry of this.#entries) {
      if (constantTimeEqual(bytes, entry.bytes)) found = entry.key;
    }
    return found;
  }
}

/** More bytes than any key of a table can have (svc_test_ and at most 200 characters). */
export const COMPARED_BYTES = 256;

/**
 * Equal or not, after reading exactly COMPARED_BYTES of each side whatever their lengths and
 * contents: the time taken says nothing about a key's length or how much of it was right.
 * Anything longer than COMPARED_BYTES is no key of the table, so it never compares equal.
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  let difference = (a.length ^ b.length) | (a.length > COMPARED_BYTES ? 1 : 0);
  for (let i = 0; i < COMPARED_BYTES; i++) difference |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return difference === 0;
}
