// Why a delivery of check-receiver got no answer, in the words docs/webhook-signatures.md gives
// ("Nothing answers", "A refusal is an answer"): the socket errors a receiver's author knows by
// name, and which of them mean nothing is there at all (the check stops after `valid`). Only a
// refused connection can be made on loopback (test/check-receiver.test.ts sends one); the rest
// come from a network (a name no server resolves, no route), so the words are held here.
import { describe, expect, it } from 'vitest';
import { noAnswer } from '../../src/webhooks/post-once.js';

const error = (code: string | undefined, message = `connect ${code} 192.0.2.1:443`) => ({ code, message });

describe('a delivery without an answer', () => {
  it.each([
    ['ECONNREFUSED', 'connection refused'],
    ['ENOTFOUND', 'host not found'],
    ['EAI_AGAIN', 'host not found'],
  ])('%s: "%s", and nothing is there: no other check is sent', (code, words) => {
    expect(noAnswer(error(code))).toEqual({ error: words, unreachable: true });
  });

  it.each(['EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL'])("%s: Node's own words, and nothing is there", (code) => {
    expect(noAnswer(error(code))).toEqual({ error: `connect ${code} 192.0.2.1:443`, unreachable: true });
  });

  it.each([
    ['ECONNRESET', 'connection closed without an answer'],
    ['EPIPE', 'connection closed without an answer'],
  ])('%s: "%s"; something is there, so the other checks are still sent', (code, words) => {
    expect(noAnswer(error(code))).toEqual({ error: words, unreachable: false });
  });

  it("any other failure: Node's own words; something may be there", () => {
    expect(noAnswer(error('ERR_SSL_WRONG_VERSION_NUMBER', 'wrong version number'))).toEqual({
      error: 'wrong version number',
      unreachable: false,
    });
    expect(noAnswer(error(undefined, 'socket hang up'))).toEqual({ error: 'socket hang up', unreachable: false });
  });
});
