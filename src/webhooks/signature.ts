// Webhook signatures as the reference defines them ("Events", "Signature"): the header
// Service-Signature: t=<unix seconds>,v1=<lowercase hex HMAC-SHA256 of "<t>.<raw body>">, keyed
// by the endpoint's whsec_ secret. Receivers compare in constant time and reject a t in the
// future or 300 seconds or more old. Exported by the package for integrators' receivers, and
// used by `waste-operations-sandbox trigger` to sign what it sends.
import { createHmac, timingSafeEqual } from 'node:crypto';

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

function hmacHex(timestamp: number, body: Payload, secret: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

/** The Service-Signature header value for a body: `t=<timestamp>,v1=<hex>`. */
export function signPayload(body: Payload, secret: string, timestamp: number = unixSeconds(undefined)): string {
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
  const expected = Buffer.from(hmacHex(timestamp, body, secret), 'hex');
  // Every candidate is compared, so the time taken does not tell which one matched.
  let matched = false;
  for (const signature of signatures) matched = timingSafeEqual(expected, Buffer.from(signature, 'hex')) || matched;
  return matched ? null : 'no v1 signature matches the body and secret';
}

/** True when the header signs exactly this body with this secret, within the time allowed. */
export function verifySignature(body: Payload, header: string | null | undefined, secret: string, options: VerifyOptions = {}): boolean {
  return signatureProblem(body, header, secret, options) === null;
}
