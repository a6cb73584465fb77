// The signature's test vectors (docs/receivers/vectors.json), for the tests that hold the sandbox
// and the guide's receivers to them. Every value is written in the data file.
import { readFileSync } from 'node:fs';

export interface SigningVector {
  name: string;
  secret: string;
  t: number;
  body: string;
  /** The body's exact bytes. */
  body_hex: string;
  header: string;
}

export interface VerifyingVector {
  name: string;
  secret: string;
  body: string;
  header: string | null;
  /** The receiver's clock, unix seconds. */
  now: number;
  valid: boolean;
}

export const VECTORS_PATH = 'docs/receivers/vectors.json';

export const VECTORS = JSON.parse(readFileSync(VECTORS_PATH, 'utf8')) as { signing: SigningVector[]; verifying: VerifyingVector[] };
