// The Idempotency-Key header's length rule (SANDBOX.md, "Idempotency": at most 255 characters,
// else 400 param Idempotency-Key; docs/behaviour.md, "Limits": 1 to 255), its messages exactly.
import { describe, expect, it } from 'vitest';
import { call, expectError, expectStatus, writesApp } from '../writes/helpers.js';

const app = writesApp();
const CLIENT = { name: 'Acme Labs', kind: 'laboratory' };

function create(idempotencyKey: string) {
  return call(app, '/v1/clients', { method: 'POST', body: CLIENT, headers: { 'Idempotency-Key': idempotencyKey } });
}

describe('Idempotency-Key length', () => {
  it('an empty key is 400, the message saying it was empty', async () => {
    const result = await create('');
    expectError(result, { status: 400, code: 'parameter_invalid', param: 'Idempotency-Key' });
    expect(result.json.error.message).toBe(
      'Invalid Idempotency-Key: must be 1 to 255 characters long, such as a UUID; received an empty value.',
    );
  });

  it('a key of 256 characters is 400, the message giving its length', async () => {
    const result = await create('k'.repeat(256));
    expectError(result, { status: 400, code: 'parameter_invalid', param: 'Idempotency-Key' });
    expect(result.json.error.message).toBe(
      'Invalid Idempotency-Key: must be 1 to 255 characters long, such as a UUID; received 256 characters.',
    );
  });

  it('keys of 1 and 255 characters are taken', async () => {
    expectStatus(await create('k'), 201);
    expectStatus(await create('k'.repeat(255)), 201);
  });
});
