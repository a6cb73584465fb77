// Issue #36: `checkReceiver(url, { secret })` in-process, held to the contract's table (SANDBOX.md,
// "Receivers in any language"): what each of the eight deliveries carries, byte for byte (with
// the signing clock pinned, every header is known: the HMACs are computed here with node:crypto),
// how each answer is graded and told, and the options and their errors. test/check-receiver.test.ts
// runs the command itself. The check names, the reference's words and the texts are written here.
import { afterEach, describe, expect, it } from 'vitest';
import { checkReceiver, type ReceiverCheck, type ReceiverReport } from '../../src/index.js';
import { call, testApp } from '../helpers.js';
import {
  answeringReceiver,
  breakingReceiver,
  closingReceiver,
  gradedReceiver,
  hmacHex,
  type Rules,
  SECRET,
  silentReceiver,
  stallingReceiver,
  type TestReceiver,
  twoPartReceiver,
  vanishingReceiver,
} from './graded-receiver.js';

/** A pinned signing time: 2026-03-02T17:00:00Z. */
const NOW = 1_772_470_800;
const pinned = () => NOW;

const CHECKS = [
  'valid',
  'forged_signature',
  'tampered_body',
  'wrong_secret',
  'expired_timestamp',
  'future_timestamp',
  'missing_signature',
  'duplicate_delivery',
];
const REFUSAL_CHECKS = CHECKS.slice(1, 7);

const REFERENCE = {
  answer: 'Reference, "Delivery": "The receiver answers any 2xx quickly and does its work afterwards."',
  hmac: `Reference, "Signature": "signature is the lowercase hex HMAC-SHA256 of the text <t>.<raw body> (t, a dot, the exact body bytes), keyed by the endpoint's whsec_ secret."`,
  age: 'Reference, "Signature": "Receivers compare in constant time and reject a delivery whose t is in the future or five minutes (300 seconds) or more old."',
  header: 'Reference, "Signature": "Each delivery carries the header Service-Signature with value t=<unix_time>,v1=<signature>."',
  retries: 'Reference, "Delivery": "Failed deliveries are retried with growing gaps between attempts."',
};
const ANY_REFUSAL = '(any status that is not 2xx; 400 is usual)';
const MUST = {
  valid: 'It must answer 2xx, quickly, to a delivery that verifies.',
  forged_signature: `It must compute the HMAC-SHA256 of "<t>.<raw body>" with its secret and refuse the delivery when no v1 matches ${ANY_REFUSAL}.`,
  tampered_body: `It must compute the HMAC over the raw body bytes it received (not a re-serialized JSON) and refuse the delivery when no v1 matches ${ANY_REFUSAL}.`,
  wrong_secret: `It must verify with its own endpoint's secret (the one given with --secret) and refuse a delivery signed with any other ${ANY_REFUSAL}.`,
  expired_timestamp: `It must read t and refuse the delivery when t is 300 seconds or more old, even though the HMAC matches: that is a replayed delivery ${ANY_REFUSAL}.`,
  future_timestamp: `It must read t and refuse the delivery when t is in the future, even though the HMAC matches ${ANY_REFUSAL}.`,
  missing_signature: `It must refuse a delivery without a Service-Signature header ${ANY_REFUSAL}.`,
  duplicate_delivery:
    "It must answer 2xx again (and not do the work twice: dedupe on the event's id); a refused duplicate is retried, as a failed delivery is.",
};
const HINT = {
  refusedValid:
    ' A refusal here usually means it verifies with another secret than the one given, or verifies a re-serialized body rather than the raw bytes.',
  redirected: ' The receiver redirected: deliveries are never redirected, so give the URL that answers the POST itself.',
  noAnswerAccepting: (seconds: number) => ` No answer within ${seconds} s is a failed delivery, retried.`,
  noAnswerRefusing: ' It must answer, with a status that is not 2xx: no answer is taken as an outage, and the delivery is retried.',
  repeats: ' The valid check failed too, and this delivery repeats it: fix that one first.',
};
const NOT_FOLLOWED = "(not followed: a delivery goes to the endpoint's URL only)";
const WRONG_SECRET = 'whsec_checkReceiverWrongSecret0000';

const receivers: TestReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function started(receiver: Promise<TestReceiver>): Promise<TestReceiver> {
  const running = await receiver;
  receivers.push(running);
  return running;
}

const app = testApp();
/** The bytes GET /v1/events/{id} answers. */
async function eventBytes(id: string, sources: Record<string, string> = {}): Promise<string> {
  const result = await call(sources.SANDBOX_SEED === undefined ? app : testApp(sources), `/v1/events/${id}`);
  expect(result.status).toBe(200);
  return result.text;
}

const byName = (report: ReceiverReport, name: string) => report.checks.find((check) => check.name === name) as ReceiverCheck;
const failing = (report: ReceiverReport) => report.checks.filter((check) => !check.ok).map((check) => check.name);

/** A check of a receiver on the pinned clock, signed at that time. */
async function pinnedCheck(rules: Partial<Rules> = {}): Promise<{ receiver: TestReceiver; report: ReceiverReport }> {
  const receiver = await started(gradedReceiver({ now: pinned, ...rules }));
  const report = await checkReceiver(receiver.url, { secret: SECRET, now: NOW });
  return { receiver, report };
}

describe('the eight deliveries, with the signing clock pinned', () => {
  it('are POSTs of real job.created events to the URL given, each as the table says, in its order', async () => {
    const { receiver, report } = await pinnedCheck();
    expect(report).toMatchObject({ url: receiver.url, ok: true });
    expect(report.checks.map((check) => check.name)).toEqual(CHECKS);
    expect(report.checks.map((check) => check.status)).toEqual([200, 400, 400, 400, 400, 400, 400, 200]);
    expect(receiver.requests).toHaveLength(8);
    for (const request of receiver.requests) {
      expect(request).toMatchObject({ method: 'POST', url: '/webhooks' });
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['user-agent']).toBe('waste-operations-sandbox check-receiver');
      expect(request.headers['content-length']).toBe(String(Buffer.byteLength(request.body)));
    }
    const [valid, forged, tampered, wrong, expired, future, missing, duplicate] = receiver.requests;
    const ids = report.checks.map((check) => check.event.id);
    for (const check of report.checks) expect(check.event.type).toBe('job.created');
    // A sample event of its own for each of the first seven, each the bytes GET /v1/events/{id} answers.
    expect(new Set(ids.slice(0, 7)).size).toBe(7);
    const bodies = await Promise.all(ids.map((id) => eventBytes(id)));
    for (const index of [0, 1, 3, 4, 5, 6, 7]) expect(receiver.requests[index]?.body, CHECKS[index]).toBe(bodies[index]);
    const signature = (t: number, body: string, secret = SECRET) => `t=${t},v1=${hmacHex(t, body, secret)}`;
    const label = (index: number) => `job.created ${ids[index]}`;

    expect(valid?.headers['service-signature']).toBe(signature(NOW, bodies[0] as string));
    expect(byName(report, 'valid').sent).toBe(`${label(0)} signed now (t=${NOW}) with the secret`);

    const right = hmacHex(NOW, bodies[1] as string, SECRET);
    const forgedV1 = String(forged?.headers['service-signature']).replace(`t=${NOW},v1=`, '');
    expect(forgedV1).toMatch(/^[0-9a-f]{64}$/);
    expect(forgedV1).not.toBe(right);
    expect(forgedV1.slice(0, 63)).toBe(right.slice(0, 63));
    expect(byName(report, 'forged_signature').sent).toBe(
      `${label(1)} with t=${NOW} and a v1 that is not the HMAC of "<t>.<body>" (the right one with its last digit changed)`,
    );

    // Signed for the event's bytes, then its last digit changed: still JSON, one character apart.
    const original = bodies[2] as string;
    expect(tampered?.headers['service-signature']).toBe(signature(NOW, original));
    const last = Math.max(...[...original].map((character, index) => (/\d/.test(character) ? index : -1)));
    const changed = String((Number(original[last]) + 1) % 10);
    expect(tampered?.body).toBe(original.slice(0, last) + changed + original.slice(last + 1));
    expect(JSON.parse(tampered?.body as string).id).toBe(ids[2]);
    expect(byName(report, 'tampered_body').sent).toBe(
      `${label(2)} signed correctly (t=${NOW}), then one byte of the body changed ("${original[last]}" → "${changed}" at character ${last + 1} of ${original.length})`,
    );

    expect(wrong?.headers['service-signature']).toBe(signature(NOW, bodies[3] as string, WRONG_SECRET));
    expect(byName(report, 'wrong_secret').sent).toBe(`${label(3)} signed now (t=${NOW}) with another secret, ${WRONG_SECRET}`);

    expect(expired?.headers['service-signature']).toBe(signature(NOW - 300, bodies[4] as string));
    expect(byName(report, 'expired_timestamp').sent).toBe(`${label(4)} signed correctly with t=${NOW - 300}, 300 s old`);

    expect(future?.headers['service-signature']).toBe(signature(NOW + 300, bodies[5] as string));
    expect(byName(report, 'future_timestamp').sent).toBe(`${label(5)} signed correctly with t=${NOW + 300}, 300 s ahead`);

    expect('service-signature' in (missing?.headers ?? {})).toBe(false);
    expect(byName(report, 'missing_signature').sent).toBe(`${label(6)} with no Service-Signature header`);

    // The valid delivery again: the same event, the same bytes, signed again (at the same pinned time).
    expect(ids[7]).toBe(ids[0]);
    expect(duplicate?.body).toBe(valid?.body);
    expect(duplicate?.headers['service-signature']).toBe(signature(NOW, bodies[0] as string));
    expect(byName(report, 'duplicate_delivery').sent).toBe(
      `${label(0)} again: the body of the valid check byte for byte, signed again now (t=${NOW}) as a retry is`,
    );
  });

  it('each answer graded and told: a PASS carries no error, location or must', async () => {
    const { report } = await pinnedCheck();
    for (const check of report.checks) {
      expect(check.expected, check.name).toBe(check.name === 'valid' || check.name === 'duplicate_delivery' ? '2xx' : 'not 2xx');
      for (const field of ['error', 'location', 'must']) expect(field in check, `${check.name} ${field}`).toBe(false);
    }
    expect(byName(report, 'valid').answer).toBe('the receiver answered 200 ("ok")');
    expect(byName(report, 'expired_timestamp').answer).toBe('the receiver answered 400 ("too old")');
    expect(byName(report, 'future_timestamp').answer).toBe('the receiver answered 400 ("from the future")');
    expect(byName(report, 'missing_signature').answer).toBe('the receiver answered 400 ("no signature")');
    expect(byName(report, 'forged_signature').answer).toBe('the receiver answered 400 ("bad signature")');
  });

  it('a Date, or unix seconds with a fraction, pins the same second', async () => {
    const receiver = await started(gradedReceiver({ now: pinned }));
    const fromDate = await checkReceiver(receiver.url, { secret: SECRET, now: new Date(NOW * 1000 + 900) });
    const fromFraction = await checkReceiver(receiver.url, { secret: SECRET, now: NOW + 0.9 });
    for (const report of [fromDate, fromFraction]) {
      expect(report.ok).toBe(true);
      expect(byName(report, 'valid').sent).toContain(`(t=${NOW})`);
    }
  });

  it('without a clock given, each delivery is signed at the real time: a receiver on the real clock passes all', async () => {
    const receiver = await started(gradedReceiver());
    const report = await checkReceiver(receiver.url, { secret: SECRET });
    expect(failing(report)).toEqual([]);
    expect(report.ok).toBe(true);
  });
});

describe('receivers that break one rule: exactly the checks that rule fails, each saying what to do', () => {
  it.each<[string, Partial<Rules>, string[]]>([
    ['no timestamp check', { checkPast: false, checkFuture: false }, ['expired_timestamp', 'future_timestamp']],
    ['no check of a t in the future', { checkFuture: false }, ['future_timestamp']],
    ['no check of an old t', { checkPast: false }, ['expired_timestamp']],
    ['no HMAC check', { checkHmac: false }, ['forged_signature', 'tampered_body', 'wrong_secret']],
    ['an HMAC compared on its first 63 digits', { comparedDigits: 63 }, ['forged_signature']],
    ['no header required', { requireHeader: false }, ['missing_signature']],
    ['refuses duplicates', { duplicateStatus: 409 }, ['duplicate_delivery']],
    ['keyed by the secret without whsec_', { keyWithPrefix: false }, ['valid', 'duplicate_delivery']],
  ])('%s', async (_, rules, expected) => {
    const { report } = await pinnedCheck(rules);
    expect(failing(report)).toEqual(expected);
    expect(report.ok).toBe(false);
  });

  it('the text of each failure: the rule, the hint for the answer, the reference quoted', async () => {
    const accepting = await pinnedCheck({ checkHmac: false, checkPast: false, checkFuture: false, requireHeader: false });
    expect(failing(accepting.report)).toEqual(REFUSAL_CHECKS);
    expect(byName(accepting.report, 'forged_signature').must).toBe(`${MUST.forged_signature} ${REFERENCE.hmac}`);
    expect(byName(accepting.report, 'tampered_body').must).toBe(`${MUST.tampered_body} ${REFERENCE.hmac}`);
    expect(byName(accepting.report, 'wrong_secret').must).toBe(`${MUST.wrong_secret} ${REFERENCE.hmac}`);
    expect(byName(accepting.report, 'expired_timestamp').must).toBe(`${MUST.expired_timestamp} ${REFERENCE.age}`);
    expect(byName(accepting.report, 'future_timestamp').must).toBe(`${MUST.future_timestamp} ${REFERENCE.age}`);
    expect(byName(accepting.report, 'missing_signature').must).toBe(`${MUST.missing_signature} ${REFERENCE.header}`);
    expect(byName(accepting.report, 'forged_signature').answer).toBe('the receiver answered 200 ("ok")');

    // A refused duplicate, after a valid delivery that passed: no word of the valid check.
    const refusing = await pinnedCheck({ duplicateStatus: 409 });
    expect(byName(refusing.report, 'duplicate_delivery').must).toBe(`${MUST.duplicate_delivery} ${REFERENCE.retries}`);
    expect(byName(refusing.report, 'duplicate_delivery').answer).toBe('the receiver answered 409 ("already processed")');

    // The valid delivery refused (400): the hint of a refused signature, and the duplicate points back to it.
    const stripped = await pinnedCheck({ keyWithPrefix: false });
    expect(byName(stripped.report, 'valid').must).toBe(`${MUST.valid}${HINT.refusedValid} ${REFERENCE.answer}`);
    expect(byName(stripped.report, 'duplicate_delivery').must).toBe(`${MUST.duplicate_delivery}${HINT.repeats} ${REFERENCE.retries}`);
  });
});

describe('answers no receiver should give', () => {
  it.each([401, 403])('a %i to the valid delivery gets the hint of a refused signature', async (status) => {
    const receiver = await started(answeringReceiver(status));
    const report = await checkReceiver(receiver.url, { secret: SECRET });
    expect(byName(report, 'valid').must).toBe(`${MUST.valid}${HINT.refusedValid} ${REFERENCE.answer}`);
    expect(byName(report, 'valid').answer).toBe(`the receiver answered ${status}`);
  });

  it('a 500 is a failure without that hint', async () => {
    const receiver = await started(answeringReceiver(500, {}, 'Internal Server Error'));
    const report = await checkReceiver(receiver.url, { secret: SECRET });
    expect(failing(report)).toEqual(['valid', 'duplicate_delivery']);
    expect(byName(report, 'valid').must).toBe(`${MUST.valid} ${REFERENCE.answer}`);
    expect(byName(report, 'valid').answer).toBe('the receiver answered 500 ("Internal Server Error")');
  });

  it('2xx to everything, with no body: the six refusal checks fail', async () => {
    const receiver = await started(answeringReceiver(200));
    const report = await checkReceiver(receiver.url, { secret: SECRET });
    expect(failing(report)).toEqual(REFUSAL_CHECKS);
    expect(byName(report, 'valid').answer).toBe('the receiver answered 200');
  });

  it('a 300 without Location is a redirect too, never a 2xx', async () => {
    const receiver = await started(answeringReceiver(300));
    const report = await checkReceiver(receiver.url, { secret: SECRET });
    expect(failing(report)).toEqual(['valid', 'duplicate_delivery']);
    const valid = byName(report, 'valid');
    expect(valid.answer).toBe(`the receiver answered 300, a redirect with no Location ${NOT_FOLLOWED}`);
    expect(valid.must).toBe(`${MUST.valid}${HINT.redirected} ${REFERENCE.answer}`);
    expect('location' in valid).toBe(false);
  });

  it('a 307 names where it pointed, and nothing is sent there', async () => {
    const elsewhere = await started(answeringReceiver(200));
    const receiver = await started(answeringReceiver(307, { Location: elsewhere.url }));
    const report = await checkReceiver(receiver.url, { secret: SECRET });
    expect(failing(report)).toEqual(['valid', 'duplicate_delivery']);
    expect(byName(report, 'duplicate_delivery')).toMatchObject({ status: 307, location: elsewhere.url });
    expect(byName(report, 'duplicate_delivery').answer).toBe(`the receiver answered 307, a redirect to ${elsewhere.url} ${NOT_FOLLOWED}`);
    expect(byName(report, 'duplicate_delivery').must).toBe(
      `${MUST.duplicate_delivery}${HINT.redirected}${HINT.repeats} ${REFERENCE.retries}`,
    );
    // A refusal check passes on a redirect: it is not a 2xx, and it carries no hint.
    expect(byName(report, 'missing_signature')).toMatchObject({ ok: true, status: 307, location: elsewhere.url });
    expect(receiver.requests).toHaveLength(8);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('a dropped connection fails every check, acceptance or refusal, saying so', async () => {
    const receiver = await started(closingReceiver());
    const report = await checkReceiver(receiver.url, { secret: SECRET, now: NOW });
    expect(failing(report)).toEqual(CHECKS);
    expect('unreachable' in report).toBe(false);
    for (const check of report.checks) {
      expect(check, check.name).toMatchObject({ status: null, error: 'connection closed without an answer' });
      expect(check.answer).toBe('no answer: connection closed without an answer');
      expect('location' in check).toBe(false);
    }
    expect(byName(report, 'valid').must).toBe(`${MUST.valid}${HINT.noAnswerAccepting(10)} ${REFERENCE.answer}`);
    expect(byName(report, 'missing_signature').must).toBe(`${MUST.missing_signature}${HINT.noAnswerRefusing} ${REFERENCE.header}`);
  });

  it('no answer within the time-out fails each check at its time-out, all eight sent', async () => {
    const receiver = await started(silentReceiver());
    const report = await checkReceiver(receiver.url, { secret: SECRET, timeoutMs: 250 });
    expect(failing(report)).toEqual(CHECKS);
    for (const check of report.checks) expect(check, check.name).toMatchObject({ status: null, error: 'no answer within 0.25 s' });
    expect(byName(report, 'duplicate_delivery').must).toBe(
      `${MUST.duplicate_delivery}${HINT.noAnswerAccepting(0.25)}${HINT.repeats} ${REFERENCE.retries}`,
    );
    expect(receiver.requests).toHaveLength(8);
  });

  it('a status whose body then stalls past the time-out is answered by its status', async () => {
    const receiver = await started(stallingReceiver(202));
    const report = await checkReceiver(receiver.url, { secret: SECRET, timeoutMs: 250 });
    expect(byName(report, 'valid')).toMatchObject({ ok: true, status: 202, answer: 'the receiver answered 202 ("partial")' });
  });

  it('a status whose body then breaks off is answered by its status, at once', async () => {
    const receiver = await started(breakingReceiver(201));
    // The longest time-out: were the broken body waited for, this test would not end in time.
    const report = await checkReceiver(receiver.url, { secret: SECRET, timeoutMs: 600_000 });
    expect(report.checks.map((check) => check.status)).toEqual(CHECKS.map(() => 201));
  });

  it('quotes the start of the body, on one line, at most 200 bytes of its first part', async () => {
    const spaced = await started(answeringReceiver(400, {}, '  no v1\n  matches \n'));
    expect(byName(await checkReceiver(spaced.url, { secret: SECRET }), 'valid').answer).toBe('the receiver answered 400 ("no v1 matches")');
    const long = await started(answeringReceiver(400, {}, 'x'.repeat(1000)));
    expect(byName(await checkReceiver(long.url, { secret: SECRET }), 'valid').answer).toBe(
      `the receiver answered 400 ("${'x'.repeat(200)}")`,
    );
    const parts = await started(twoPartReceiver(400, 'first part', 'second part'));
    expect(byName(await checkReceiver(parts.url, { secret: SECRET }), 'valid').answer).toBe('the receiver answered 400 ("first part")');
  });

  it('a URL where nothing listens: the valid check alone, and why', async () => {
    const gone = await answeringReceiver(200);
    await gone.close();
    const report = await checkReceiver(gone.url, { secret: SECRET });
    expect(report).toMatchObject({ url: gone.url, ok: false, unreachable: 'connection refused' });
    expect(report.checks).toHaveLength(1);
    expect(report.checks[0]).toMatchObject({ name: 'valid', ok: false, status: null, error: 'connection refused' });
  });

  it('a receiver that goes away after the first delivery: every later check fails, connection refused, all sent', async () => {
    const receiver = await started(vanishingReceiver());
    const report = await checkReceiver(receiver.url, { secret: SECRET });
    expect(failing(report)).toEqual(CHECKS.slice(1));
    for (const check of report.checks.slice(1)) expect(check.error, check.name).toBe('connection refused');
    expect('unreachable' in report).toBe(false);
  });

  it('https to a server that speaks plain HTTP: the TLS failure in Node’s words, each check sent', async () => {
    const plain = await started(answeringReceiver(200));
    const report = await checkReceiver(plain.url.replace('http:', 'https:'), { secret: SECRET });
    expect(report.checks).toHaveLength(8);
    expect(report.checks[0]?.status).toBeNull();
    expect(report.checks[0]?.error).toMatch(/ssl|tls|wrong version|EPROTO/i);
    expect('unreachable' in report).toBe(false);
  });
});

describe('the options', () => {
  it('type: every delivery an event of that type; seed: the events of that seed', async () => {
    const receiver = await started(gradedReceiver());
    const paid = await checkReceiver(receiver.url, { secret: SECRET, type: 'invoice.paid' });
    expect(new Set(paid.checks.map((check) => check.event.type))).toEqual(new Set(['invoice.paid']));
    expect(JSON.parse(receiver.requests[0]?.body as string).type).toBe('invoice.paid');

    const defaults = await checkReceiver(receiver.url, { secret: SECRET });
    const seeded = await checkReceiver(receiver.url, { secret: SECRET, seed: 'another-seed' });
    expect(seeded.ok).toBe(true);
    expect(seeded.checks[0]?.event.id).not.toBe(defaults.checks[0]?.event.id);
    expect(receiver.requests[16]?.body).toBe(await eventBytes(seeded.checks[0]?.event.id as string, { SANDBOX_SEED: 'another-seed' }));
  });

  it('userAgent names the sender; onCheck is told each check as it ends; a URL object is taken', async () => {
    const receiver = await started(gradedReceiver());
    const told: ReceiverCheck[] = [];
    const report = await checkReceiver(new URL(receiver.url), {
      secret: SECRET,
      userAgent: 'my-ci/1.0',
      onCheck: (check) => told.push(check),
    });
    expect(told).toEqual(report.checks);
    expect(receiver.requests.map((request) => request.headers['user-agent'])).toEqual(CHECKS.map(() => 'my-ci/1.0'));
  });

  it('a secret that is the wrong_secret check’s own: another one is used for that check', async () => {
    const receiver = await started(gradedReceiver({ secret: WRONG_SECRET }));
    const report = await checkReceiver(receiver.url, { secret: WRONG_SECRET });
    expect(report.ok).toBe(true);
    expect(byName(report, 'wrong_secret').sent).toMatch(new RegExp(`with another secret, ${WRONG_SECRET}1$`));
  });

  it('the longest time-out, 600000 ms, is taken', async () => {
    const receiver = await started(gradedReceiver());
    expect((await checkReceiver(receiver.url, { secret: SECRET, timeoutMs: 600_000 })).ok).toBe(true);
  });
});

describe('what checkReceiver cannot use: a TypeError saying what to pass', () => {
  const URL_TEXT = 'http://127.0.0.1:9/webhooks';

  it.each([
    ['ftp://127.0.0.1/webhooks', `checkReceiver: the receiver's URL must use http or https, not ftp ("ftp://127.0.0.1/webhooks").`],
    [
      'not a url',
      `checkReceiver: the receiver's URL must be an absolute http:// or https:// URL, such as http://127.0.0.1:4242/webhooks; received "not a url".`,
    ],
  ])('the URL %s', async (url, message) => {
    await expect(checkReceiver(url, { secret: SECRET })).rejects.toThrow(new TypeError(message));
  });

  const secretMessage = (received: string) =>
    `checkReceiver: the secret must be the whsec_… signing secret your receiver verifies with (whsec_ and at least one more character, no spaces); received ${received}.`;

  it.each<[unknown, string]>([
    [undefined, 'undefined'],
    ['', '""'],
    ['whsec_', '"whsec_"'],
    ['xwhsec_abc', '"xwhsec_abc"'],
    ['whsec_a b', '"whsec_a b"'],
    ['sk_live_123', '"sk_live_123"'],
    [42, '42'],
  ])('the secret %j', async (secret, received) => {
    await expect(checkReceiver(URL_TEXT, { secret: secret as string })).rejects.toThrow(new TypeError(secretMessage(received)));
  });

  it('no options at all, from plain JavaScript', async () => {
    await expect((checkReceiver as (url: string) => Promise<unknown>)(URL_TEXT)).rejects.toThrow(new TypeError(secretMessage('undefined')));
  });

  it.each([Number.NaN, 0, -1, 600_001])('timeoutMs %d', async (timeoutMs) => {
    await expect(checkReceiver(URL_TEXT, { secret: SECRET, timeoutMs })).rejects.toThrow(
      new TypeError(`checkReceiver: timeoutMs must be a number of milliseconds above 0, at most 600000; received ${timeoutMs}.`),
    );
  });

  it('a type that is not an event type', async () => {
    await expect(checkReceiver(URL_TEXT, { secret: SECRET, type: 'job.create' as 'job.created' })).rejects.toThrow(
      new TypeError(
        'checkReceiver: type must be one of the event types (job.created, job.scheduled, job.closed, staff.accepted, container.received, container.storage_status_changed, manifest.ready_for_signature, manifest.signed, profile.approved, profile.expiring, invoice.sent, invoice.paid); received "job.create".',
      ),
    );
  });
});
