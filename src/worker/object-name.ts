/**
 * The Durable Object name for a store key. Keys hold the caller's API key (and for rate limits
 * the raw Authorization header), and object names can surface in Cloudflare's dashboard and
 * logs, so objects are named by a SHA-256 digest of the key rather than the key itself.
 */
export async function objectName(kind: string, key: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${kind}\u0000${key}`));
  let hex = '';
  for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, '0');
  return `${kind}:${hex}`;
}
