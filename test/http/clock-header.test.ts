// The Sandbox-Clock header (SANDBOX.md, "Pinned clock"): a UTC time as the API writes it pins the
// answer; anything else in the header is a 400 naming it. Spaces and tabs around a header are not
// part of it (fetch's Headers drop them); any other character is.
import { describe, expect, it } from 'vitest';
import { call, testApp } from '../helpers.js';
import { expectError } from '../writes/helpers.js';

const app = testApp();
const PINNED = '2026-03-02T17:00:00Z';

describe('Sandbox-Clock', () => {
  it('with spaces or a tab around it, pins the answer: the same Request-Id twice', async () => {
    const first = await call(app, '/v1/jobs?limit=1', { headers: { 'Sandbox-Clock': `  ${PINNED}\t` } });
    const second = await call(app, '/v1/jobs?limit=1', { headers: { 'Sandbox-Clock': PINNED } });
    expect(first.status, first.text).toBe(200);
    expect(first.headers.get('request-id')).toMatch(/^req_[0-9A-Za-z]{24}$/);
    expect(first.headers.get('request-id')).toBe(second.headers.get('request-id'));
  });

  it.each([[`\u00a0${PINNED}`], [`${PINNED}\u00a0`]])('%j, a no-break space around the time, is a 400 naming the header', async (value) => {
    expectError(await call(app, '/v1/jobs?limit=1', { headers: { 'Sandbox-Clock': value } }), {
      status: 400,
      code: 'parameter_invalid',
      param: 'Sandbox-Clock',
    });
  });
});
