/** JSON with object keys sorted at every depth, so key order does not change a fingerprint. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.keys(value)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
  return `{${entries.join(',')}}`;
}

/** What makes two requests "the same" for an Idempotency-Key: method, path and JSON body. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return `${method} ${path}\n${canonicalJson(body ?? {})}`;
}
