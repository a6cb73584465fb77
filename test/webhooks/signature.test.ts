// The signing helpers the package exports for receivers (docs/toolkit.md, "Signed webhook
// deliveries"), held to the reference's "Signature": `t=<unix_time>,v1=<64 lowercase hex>`, the
// HMAC-SHA256 of "<t>.<raw body>" keyed by the whsec_ secret, refused when t is in the future or
// 300 seconds or more old. test/webhooks.test.ts checks that good signatures verify and bad ones do
// not; this file checks the reason signatureProblem gives for each refusal, part by part of the
// header, and the TypeError a receiver set up without its secret gets. Every expected HMAC is
// computed here with node:crypto, and every expected text is written out.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signatureProblem, signPayload, verifySignature } from '../../src/webhooks/signature.js';

const SECRET = 'whsec_signatureTestSecret0123456';
const BODY = '{"id":"evt_signatureTest01","object":"event","type":"job.created"}';
const NOW = 1_780_000_000;

/** The reference's v1: lowercase hex HMAC-SHA256 of "<t>.<raw body>", keyed by the secret. */
function v1(timestamp: number, body = BODY, secret = SECRET): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

const problem = (header: string | null | undefined, options: { now?: number; toleranceSeconds?: number } = { now: NOW }) =>
  signatureProblem(BODY, header, SECRET, options);

describe('signatureProblem says why a delivery does not verify', () => {
  it('null when the header is the reference signature of the body, at its own time', () => {
    expect(problem(`t=${NOW},v1=${v1(NOW)}`)).toBeNull();
  });

  it('no header at all, or an empty one', () => {
    for (const header of [undefined, null, '']) expect(problem(header), JSON.stringify(header)).toBe('no Service-Signature header');
  });

  it('no t: missing, or not 1 to 15 digits and nothing else', () => {
    const signature = `v1=${v1(NOW)}`;
    // A t made only of a digit run inside other text, or of 16 digits, is no t at all; so is a
    // digit value under another name.
    for (const header of [
      signature,
      `x=${NOW},${signature}`,
      `t=${NOW}abc,${signature}`,
      `t=abc${NOW},${signature}`,
      `t=-${NOW},${signature}`,
      `t=1000000000000000,${signature}`,
      `t,${signature}`,
    ]) {
      expect(problem(header), header).toBe('Service-Signature has no t=<unix seconds>');
    }
  });

  it('no v1: missing, or not exactly 64 lowercase hex digits, or under another name', () => {
    const good = v1(NOW);
    for (const header of [
      `t=${NOW}`,
      `t=${NOW},v0=${good}`,
      `t=${NOW},v1=${good.toUpperCase()}`,
      `t=${NOW},v1=${good}0`,
      `t=${NOW},v1=0${good}`,
      `t=${NOW},v1=${good.slice(1)}`,
      `t=${NOW},v1`,
    ]) {
      expect(problem(header), header).toBe('Service-Signature has no v1=<64 lowercase hex digits>');
    }
  });

  it('a t in the future names it and the receiver clock', () => {
    expect(problem(`t=${NOW + 1},v1=${v1(NOW + 1)}`)).toBe(`the timestamp ${NOW + 1} is in the future (now ${NOW})`);
  });

  it('a t 300 seconds or more old names its age and the oldest age accepted, 299', () => {
    expect(problem(`t=${NOW - 299},v1=${v1(NOW - 299)}`)).toBeNull();
    expect(problem(`t=${NOW - 300},v1=${v1(NOW - 300)}`)).toBe(`the timestamp ${NOW - 300} is 300 seconds old (at most 299 accepted)`);
    expect(problem(`t=${NOW - 4000},v1=${v1(NOW - 4000)}`)).toBe(`the timestamp ${NOW - 4000} is 4000 seconds old (at most 299 accepted)`);
  });

  it('another tolerance moves the limit, and the text says it', () => {
    const header = `t=${NOW - 60},v1=${v1(NOW - 60)}`;
    expect(problem(header, { now: NOW, toleranceSeconds: 61 })).toBeNull();
    expect(problem(header, { now: NOW, toleranceSeconds: 60 })).toBe(`the timestamp ${NOW - 60} is 60 seconds old (at most 59 accepted)`);
  });

  it('a well-formed v1 that is not the HMAC of this body with this secret', () => {
    const reason = 'no v1 signature matches the body and secret';
    expect(problem(`t=${NOW},v1=${v1(NOW, BODY, 'whsec_anotherSecret')}`)).toBe(reason);
    expect(problem(`t=${NOW},v1=${v1(NOW, `${BODY} `)}`)).toBe(reason);
    // Signed at another t: the t is part of what is signed.
    expect(problem(`t=${NOW},v1=${v1(NOW - 1)}`)).toBe(reason);
  });
});

describe('signPayload', () => {
  it('signs whole unix seconds from 0, as the reference computes it', () => {
    expect(signPayload(BODY, SECRET, 0)).toBe(`t=0,v1=${v1(0)}`);
    expect(signPayload(BODY, SECRET, NOW)).toBe(`t=${NOW},v1=${v1(NOW)}`);
  });

  it('refuses a timestamp that is negative, fractional or not a number', () => {
    for (const timestamp of [-1, 1.5, Number.NaN, 2 ** 53]) {
      expect(() => signPayload(BODY, SECRET, timestamp), String(timestamp)).toThrow(new TypeError('timestamp must be whole unix seconds'));
    }
  });
});

describe('a receiver set up without its secret is told so, by name', () => {
  // docs/toolkit.md: "a missing or empty secret throws a TypeError saying what to pass". The
  // message names the function called and what it was given instead of a secret.
  const message = (caller: string, received: string) =>
    `${caller} needs the signing secret as its third argument: the whsec_… secret of your webhook endpoint, or the one \`waste-operations-sandbox trigger\` printed or was given with --secret (e.g. process.env.WEBHOOK_SECRET); received ${received}.`;
  const header = `t=${NOW},v1=${v1(NOW)}`;
  const given: [unknown, string][] = [
    ['', 'an empty string'],
    [undefined, 'undefined'],
    [null, 'null'],
    [42, 'a number'],
    [Buffer.from(SECRET), 'a object'],
  ];

  it.each(given)('verifySignature with %j', (secret, received) => {
    expect(() => verifySignature(BODY, header, secret as string, { now: NOW })).toThrow(
      new TypeError(message('verifySignature', received)),
    );
  });

  it.each(given)('signatureProblem with %j', (secret, received) => {
    expect(() => signatureProblem(BODY, header, secret as string, { now: NOW })).toThrow(
      new TypeError(message('signatureProblem', received)),
    );
  });

  it.each(given)('signPayload with %j', (secret, received) => {
    expect(() => signPayload(BODY, secret as string, NOW)).toThrow(new TypeError(message('signPayload', received)));
  });
});
