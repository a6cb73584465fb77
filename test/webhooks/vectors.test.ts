// Issue #36: the sandbox's own signing code held to the test vectors of docs/webhook-signatures.md
// (docs/receivers/vectors.json). The vectors were computed with Python's hmac and openssl, not
// with this code: every expected header and verdict is written in the data file.
import { describe, expect, it } from 'vitest';
import { signatureProblem, signPayload, verifySignature } from '../../src/index.js';
import { VECTORS } from './vectors.js';

describe('the test vectors', () => {
  it('give each body its exact bytes, UTF-8, and headers of the reference form', () => {
    expect(VECTORS.signing.length).toBeGreaterThanOrEqual(4);
    for (const vector of VECTORS.signing) {
      expect(Buffer.from(vector.body, 'utf8').toString('hex'), vector.name).toBe(vector.body_hex);
      // Reference, "Signature": t=<unix_time>,v1=<signature>, the signature lowercase hex HMAC-SHA256.
      expect(vector.header, vector.name).toMatch(new RegExp(`^t=${vector.t},v1=[0-9a-f]{64}$`));
    }
    // One body goes beyond ASCII, so a receiver that hashes characters rather than bytes fails it.
    expect(VECTORS.signing.some((vector) => Buffer.byteLength(vector.body, 'utf8') > vector.body.length)).toBe(true);
    expect(VECTORS.verifying.filter((vector) => vector.valid).length).toBeGreaterThan(0);
    expect(VECTORS.verifying.filter((vector) => !vector.valid).length).toBeGreaterThan(5);
  });
});

describe("the sandbox's signing code", () => {
  it.each(VECTORS.signing.map((vector) => [vector.name, vector] as const))('signs %s as the vector says', (_, vector) => {
    expect(signPayload(vector.body, vector.secret, vector.t)).toBe(vector.header);
    // Bytes or text, the same signature: the HMAC covers the UTF-8 bytes.
    expect(signPayload(Buffer.from(vector.body_hex, 'hex'), vector.secret, vector.t)).toBe(vector.header);
    expect(verifySignature(vector.body, vector.header, vector.secret, { now: vector.t })).toBe(true);
  });

  it.each(VECTORS.verifying.map((vector) => [vector.name, vector] as const))('verifies: %s', (_, vector) => {
    expect(verifySignature(vector.body, vector.header, vector.secret, { now: vector.now })).toBe(vector.valid);
    expect(signatureProblem(vector.body, vector.header, vector.secret, { now: vector.now }) === null).toBe(vector.valid);
  });
});
