// The names of the Worker's Durable Objects as docs/workers.md states them, computed here with Web
// Crypto rather than by the code under test: the kind, a colon, and the lower-case hex SHA-256 of
// the kind, a NUL and what the object holds.

/** The SHA-256 of the text's UTF-8 bytes, in lower-case hex (64 characters). */
export async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The object of one Idempotency-Key: `apiKey`, then on a shared key the client's address
 * (CF-Connecting-IP), then the Idempotency-Key, NUL-separated.
 */
export async function idempotencyObjectNameOf(parts: readonly string[]): Promise<string> {
  const held = parts.join('\u0000');
  return `idempotency:${await sha256Hex(`idempotency\u0000${held}`)}`;
}

/** The object of one rate-limit bucket: the Authorization header as sent, then the client's address. */
export async function rateLimitObjectNameOf(authorization: string, address: string): Promise<string> {
  return `rate-limit:${await sha256Hex(`rate-limit\u0000${authorization}\u0000${address}`)}`;
}
