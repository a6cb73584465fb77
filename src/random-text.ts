// Random text for request IDs, new record IDs and webhook secrets. Bytes come from the
// platform's CSPRNG (crypto.getRandomValues, on Node and Workers alike) in blocks of 4 KiB:
// one call per block instead of one per ID, which was a fifth of the CPU of a create.

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const POOL_SIZE = 4096;
/** 248 = 4 × 62: bytes at or above it are skipped, so every character is equally likely. */
const UNBIASED_LIMIT = 248;

const pool = new Uint8Array(POOL_SIZE);
let position = POOL_SIZE;

function nextByte(): number {
  if (position === POOL_SIZE) {
    crypto.getRandomValues(pool);
    position = 0;
  }
  return pool[position++] as number;
}

/** `length` characters of [0-9A-Za-z], uniformly random. */
export function randomBase62(length: number): string {
  let text = '';
  while (text.length < length) {
    const byte = nextByte();
    if (byte < UNBIASED_LIMIT) text += ALPHABET[byte % 62];
  }
  return text;
}
