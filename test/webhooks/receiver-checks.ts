// SANDBOX.md's table of check-receiver's checks ("Receivers in any language"), in its order, for
// the command's tests (test/check-receiver.test.ts).
export const CHECKS = [
  'valid',
  'forged_signature',
  'tampered_body',
  'wrong_secret',
  'expired_timestamp',
  'future_timestamp',
  'missing_signature',
  'duplicate_delivery',
];

/** The six a correct receiver refuses: all but the valid delivery and its duplicate. */
export const REFUSAL_CHECKS = CHECKS.filter((name) => name !== 'valid' && name !== 'duplicate_delivery');
