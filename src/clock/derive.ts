// Values derived from a request (SANDBOX.md, "Pinned clock"): with the clock pinned, a new
// record's ID, a webhook secret and the request ID come from a keyed hash of what the request
// said, so the same request gets the same bytes on every run, machine and runtime. HMAC-SHA256
// from @noble/hashes: synchronous and pure JavaScript, so Node and workerd give the same bits
// without Web Crypto's promises in the middle of a handler.
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { canonicalJson } from '../idempotency/fingerprint.js';

/** Everything an answer may depend on; nothing else reaches the hash. */
export interface RequestMaterial {
  /** The account the key opens ('A', 'B'), or null before the key is known (a 401). */
  account: string | null;
  method: string;
  /** Path and query, as sent. */
  target: string;
  /** The body as a JSON object (key order ignored), or null when none was read as one. */
  body: Record<string, unknown> | null;
  idempotencyKey: string | null;
  /** The pinned time as the API writes it. */
  time: string;
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SIXTY_TWO = 62n;
/** Versioned so that a future change of the material changes every derived value on purpose. */
const DOMAIN = 'waste-operations-sandbox/pinned-clock/v1';

/**
 * The request's root: HMAC-SHA256 under the seed of the material, as canonical JSON (an array,
 * so no field can run into the next). Each value of the answer is then derived from it by label.
 */
export function derivationRoot(seed: string, material: RequestMaterial): Uint8Array {
  const text = canonicalJson([
    DOMAIN,
    material.account,
    material.method,
    material.target,
    material.body,
    material.idempotencyKey,
    material.time,
  ]);
  return hmac(sha256, utf8ToBytes(seed), utf8ToBytes(text));
}

/**
 * `length` base-62 characters (at most 42: 62^42 < 2^256) from the root and a label that says
 * which value of the answer it is (`job#1`, `secret#1`, `request_id`). The 256-bit digest read as
 * a number and written in base 62: the bias of the top digit is below 2^-60 for 32 characters.
 */
export function deriveBase62(root: Uint8Array, label: string, length: number): string {
  let number = BigInt(`0x${bytesToHex(hmac(sha256, root, utf8ToBytes(label)))}`);
  let text = '';
  for (let i = 0; i < length; i++) {
    text += ALPHABET[Number(number % SIXTY_TWO)];
    number /= SIXTY_TWO;
  }
  return text;
}
