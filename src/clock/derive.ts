// Values derived from a request (docs/snapshot-tests.md): with the clock pinned, a new
// record's ID, a webhook secret and the request ID come from a keyed hash of what the request
// said, so the same request gets the same bytes on every run, machine and runtime. HMAC-SHA256,
// synchronous (no Web Crypto promise in the middle of a handler): Node's native one where the
// runtime has it, else @noble/hashes' pure JavaScript one (workerd without nodejs_compat). Both
// are HMAC-SHA256, so both give the same bits; Node's takes a tenth of the time.
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { canonicalJson } from '../idempotency/fingerprint.js';

type HmacSha256 = (key: Uint8Array, message: Uint8Array) => Uint8Array;

interface NodeCrypto {
  createHmac(algorithm: 'sha256', key: Uint8Array): { update(data: Uint8Array): { digest(): Uint8Array } };
}

const nodeCrypto = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.(
  'node:crypto',
) as NodeCrypto | undefined;

/** HMAC-SHA256 in pure JavaScript: the one of a runtime without Node's crypto. */
export function pureHmacSha256(key: Uint8Array, message: Uint8Array): Uint8Array {
  return hmac(sha256, key, message);
}

const hmacSha256: HmacSha256 = nodeCrypto
  ? (key, message) => nodeCrypto.createHmac('sha256', key).update(message).digest()
  : pureHmacSha256;

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
const UNBIASED_LIMIT = 248;
/** Versioned so that a future change of the material changes every derived value on purpose. */
const DOMAIN = 'waste-operations-sandbox/pinned-clock/v1';

/**
 * The request's root: HMAC-SHA256 under the seed of the material, as canonical JSON. Each value
 * of the answer is then derived from it by label.
 */
export function derivationRoot(seed: string, material: RequestMaterial): Uint8Array {
  return hmacSha256(utf8ToBytes(seed), utf8ToBytes(rootText(material)));
}

/**
 * The same root, where the runtime has only an asynchronous native HMAC (Web Crypto on workerd,
 * without nodejs_compat). The root hashes the whole body: for a 1 MiB body the pure JavaScript
 * HMAC takes ~15 ms of CPU there, past the Workers Free plan's 10 ms a request; Web Crypto
 * takes ~1 ms. Node's own HMAC is synchronous and faster still, so Node never comes here.
 */
export async function derivationRootAsync(seed: string, material: RequestMaterial): Promise<Uint8Array> {
  if (nodeCrypto !== undefined) return derivationRoot(seed, material);
  // Every runtime the package runs on has Web Crypto (Node 20.19+, workerd).
  return webCryptoHmac(crypto.subtle, utf8ToBytes(seed), utf8ToBytes(rootText(material)));
}

/** HMAC-SHA256 by Web Crypto, the Worker's way to a root (Node has the same API: test/clock-runtimes.test.ts runs it there). */
export async function webCryptoHmac(
  subtle: SubtleCrypto,
  key: Uint8Array<ArrayBuffer>,
  message: Uint8Array<ArrayBuffer>,
): Promise<Uint8Array> {
  const imported = await subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await subtle.sign('HMAC', imported, message));
}

/** The material as canonical JSON: an array, so no field can run into the next. */
function rootText(material: RequestMaterial): string {
  return canonicalJson([DOMAIN, material.account, material.method, material.target, material.body, material.idempotencyKey, material.time]);
}

/**
 * `length` base-62 characters from the root and a label that says which value of the answer it is
 * (`job#1`, `whsec#1`, `request_id#1`): the bytes of HMAC(root, label) below 248 (= 4 × 62, so
 * every character is equally likely), each modulo 62, as random IDs are made (src/random-text.ts);
 * a further block, HMAC(root, label + "+n"), when 32 bytes do not give enough.
 */
export function deriveBase62(root: Uint8Array, label: string, length: number): string {
  let text = '';
  for (let block = 0; text.length < length; block++) {
    for (const byte of hmacSha256(root, utf8ToBytes(block === 0 ? label : `${label}+${block}`))) {
      if (byte < UNBIASED_LIMIT) text += ALPHABET[byte % 62];
      if (text.length === length) break;
    }
  }
  return text;
}

/**
 * A number in [0, 1) from a key and a label (`faults#17`): the draws of a seeded stream that is
 * the same on every runtime, as derived IDs are (src/faults/random.ts draws random faults so).
 */
export function derivedFraction(key: Uint8Array, label: string): number {
  const bytes = hmacSha256(key, utf8ToBytes(label));
  return (
    ((((bytes[0] as number) << 24) | ((bytes[1] as number) << 16) | ((bytes[2] as number) << 8) | (bytes[3] as number)) >>> 0) / 2 ** 32
  );
}
