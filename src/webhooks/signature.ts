// Webhook signatures as the reference defines them ("Events", "Signature"): the header
// Service-Signature: t=<unix seconds>,v1=<lowercase hex HMAC-SHA256 of "<t>.<raw body>">, keyed
// by the endpoint's whsec_ secret. Receivers compare in constant time and reject a t in the
// future or 300 seconds or more old. Exported by the package for integrators' receivers, and
// used by `waste-operations-sandbox trigger` and the events of writes to sign what they send.
// HMAC from @noble/hashes rather than node:crypto: the Worker signs the events of writes too, and
// runs without nodejs_compat.
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

export const SIGNATURE_HEADER = 'Service-Signature';
/** Reference, "Limits": reject at 300 seconds or more. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export type Payload = string | Uint8Array;

export interface VerifyOptions {
  /** The receiver's clock: a Date, or unix seconds. Default: now. */
  now?: Date | number;
  /** Oldest accepted age in seconds, exclusive. Default 300, the reference's. */
  toleranceSeconds?: number;
}

function unixSeconds(now: Date | number | undefined): number {
  if (now === undefined) return Math.floor(Date.now() / 1000);
  return typeof now === 'number' ? Math.floor(now) : Math.floor(now.getTime() / 1000);
}

/**
 * A missing secret is the receiver's set-up, not a bad delivery: it throws rather than refusing
 * every delivery in silence (or crashing inside node:crypto with "Received undefined").
 */
function requireSecret(caller: string, secret: unknown): asserts secret is string {
  if (typeof secret === 'string' && secret !== '') return;
  const received = secret === '' ? 'an empty string' : secret === undefined || secret === null ? String(secret) : `a ${typeof secret}`;
  throw new TypeError(
    `${caller} needs the signing secret as its third argument: the whsec_… secret of your webhook endpoint, or the one \`waste-operations-sandbox trigger\` printed or was given with --secret (e.g. process.env.WEBHOOK_SECRET); received ${received}.`,
  );
}

function hmacHex(timestamp: number, body: Payload, secret: string): string {
  const mac = hmac.create(sha256, utf8ToBytes(secret));
  mac.update(utf8ToBytes(`${timestamp}.`));
  mac.update(typeof body === 'string' ? utf8ToBytes(body) : body);
  return bytesToHex(mac.digest());
}

/** Two strings of hex digits of one length, compared in time that does not depend on where they differ. */
function sameHex(a: string, b: string): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i % b.length);
  return difference === 0;
}

/** The Service-Signature header value for a body: `t=<timestamp>,v1=<hex>`. */
export function signPayload(body: Payload, secret: string, timestamp: number = unixSeconds(undefined)): string {
  requireSecret('signPayload', secret);
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new TypeError('timestamp must be whole unix seconds');
  return `t=${timestamp},v1=${hmacHex(timestamp, body, secret)}`;
}

/**
 * Why a delivery does not verify, or null when it does: a header that is not `t=…,v1=…`, a `t` in
 * the future or too old, or no `v1` that matches (several are allowed, as during a secret's
 * rotation). Compared in constant time.
 */
export function signatureProblem(
  body: Payload,
  header: string | null | undefined,
  secret: string,
  options: VerifyOptions = {},
): string | null {
  requireSecret('signatureProblem', secret);
  if (typeof header !== 'string' || header === '') return `no ${SIGNATURE_HEADER} header`;
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [name, value = ''] = part.trim().split('=', 2) as [string, string?];
    if (name === 't' && /^\d{1,15}$/.test(value)) timestamp = Number(value);
    else if (name === 'v1' && /^[0-9a-f]{64}$/.test(value)) signatures.push(value);
  }
  if (timestamp === undefined) return `${SIGNATURE_HEADER} has no t=<unix seconds>`;
  if (signatures.length === 0) return `${SIGNATURE_HEADER} has no v1=<64 lowercase hex digits>`;
  const now = unixSeconds(options.now);
  if (timestamp > now) return `the timestamp ${timestamp} is in the future (now ${now})`;
  const tolerance = options.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS;
  if (now - timestamp >= tolerance)
    return `the timestamp ${timestamp} is ${now - timestamp} seconds old (at most ${tolerance - 1} accepted)`;
  const expected = hmacHex(timestamp, body, secret);
  // Every candidate is compared, so the time taken does not tell which one matched.
  let matched = false;
  for (const signature of signatures) matched = sameHex(expected, signature) || matched;
  return matched ? null : 'no v1 signature matches the body and secret';
}

/** True when the header signs exactly this body with this secret, within the time allowed. */
export function verifySignature(body: Payload, header: string | null | undefined, secret: string, options: VerifyOptions = {}): boolean {
  requireSecret('verifySignature', secret);
  return signatureProblem(body, header, secret, options) === null;
}
