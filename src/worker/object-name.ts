import { sha256Hex } from './sha256-hex.js';

/**
 * The Durable Object name for a store key. Keys hold the caller's API key (for rate limits the
 * raw Authorization header) and, on a shared key, the client's address (CF-Connecting-IP), and
 * object names can surface in Cloudflare's dashboard and logs, so objects are named by a SHA-256
 * digest of the key rather than the key itself: neither a key nor an address is readable there.
 */
export async function objectName(kind: string, key: string): Promise<string> {
  return `${kind}:${await sha256Hex(`${kind}\u0000${key}`)}`;
}
