import { randomBase62 } from '../random-text.js';

/** `req_` and 24 random base-62 characters (~142 bits); the same value as the Request-Id header. */
export function newRequestId(): string {
  return `req_${randomBase62(24)}`;
}
