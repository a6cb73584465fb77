const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `req_` and 24 random base-62 characters (~142 bits); the same value as the Request-Id header. */
export function newRequestId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  let id = 'req_';
  // 248 = 4 × 62: dropping the top of the byte range would remove the bias, but an ID needs
  // uniqueness, not uniformity, so a plain modulo is enough.
  for (const byte of bytes) id += ALPHABET[byte % 62];
  return id;
}
