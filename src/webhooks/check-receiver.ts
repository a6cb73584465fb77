// `checkReceiver(url, { secret })`: tests an integrator's webhook receiver against the reference's
// rules ("Events": "Signature" and "Delivery"), each check one delivery of a real sample event,
// in the order of the sandbox's contract (SANDBOX.md, "Receivers in any language"). Deliveries go
// to the URL given and nowhere else, one at a time, each bounded in time.
import { EVENT_TYPES, type EventType } from '../resources/events/types.js';
import { createSandbox } from '../sandbox.js';
import { postOnce, type PostAnswer } from './post-once.js';
import { type SampleEvent, sampleEventsOfType } from './sample-events.js';
import { SIGNATURE_HEADER, SIGNATURE_TOLERANCE_SECONDS, signPayload } from './signature.js';

export const RECEIVER_CHECKS = [
  'valid',
  'forged_signature',
  'tampered_body',
  'wrong_secret',
  'expired_timestamp',
  'future_timestamp',
  'missing_signature',
  'duplicate_delivery',
] as const;
export type ReceiverCheckName = (typeof RECEIVER_CHECKS)[number];

/** The contract's "2xx, within 10 s": how long a receiver has to answer each delivery. */
export const CHECK_TIMEOUT_MS = 10_000;

export interface CheckReceiverOptions {
  /** The whsec_… secret the receiver verifies with. */
  secret: string;
  /** How long each delivery waits for the answer's headers; default 10 000 ms. */
  timeoutMs?: number;
  /** The event type every delivery carries (default job.created): one the receiver accepts. */
  type?: EventType;
  /** The seed of the sample data the events come from (default the published seed). */
  seed?: string;
  /** Told each check as it ends, so progress can be printed as it happens. */
  onCheck?: (check: ReceiverCheck) => void;
  /** The User-Agent of the deliveries. */
  userAgent?: string;
  /** The time deliveries are signed at, a Date or unix seconds; default the clock at each delivery. Fixed for tests. */
  now?: Date | number;
}

export interface ReceiverCheck {
  name: ReceiverCheckName;
  ok: boolean;
  /** The receiver's HTTP status, or null when no answer came. */
  status: number | null;
  /** Why no answer came (refused, closed, timed out), when none did. */
  error?: string;
  /** Where a 3xx answer pointed (never followed). */
  location?: string;
  /** What a correct receiver answers: "2xx" or "not 2xx". */
  expected: '2xx' | 'not 2xx';
  event: { id: string; type: EventType };
  /** What was sent, in words. */
  sent: string;
  /** What came back, in words. */
  answer: string;
  /** For a failed check: what the receiver must do, quoting the reference. */
  must?: string;
}

export interface ReceiverReport {
  url: string;
  /** True when every check passed. */
  ok: boolean;
  checks: ReceiverCheck[];
  /** Set when nothing answers at the URL at all; the checks after `valid` were not run. */
  unreachable?: string;
}

/** The reference's own words, quoted in a failed check ("Events", "Signature" and "Delivery"). */
const REFERENCE = {
  answer: 'Reference, "Delivery": "The receiver answers any 2xx quickly and does its work afterwards."',
  hmac: `Reference, "Signature": "signature is the lowercase hex HMAC-SHA256 of the text <t>.<raw body> (t, a dot, the exact body bytes), keyed by the endpoint's whsec_ secret."`,
  age: 'Reference, "Signature": "Receivers compare in constant time and reject a delivery whose t is in the future or five minutes (300 seconds) or more old."',
  header: 'Reference, "Signature": "Each delivery carries the header Service-Signature with value t=<unix_time>,v1=<signature>."',
  retries: 'Reference, "Delivery": "Failed deliveries are retried with growing gaps between attempts."',
};

const ANY_REFUSAL = '(any status that is not 2xx; 400 is usual)';

/** What a correct receiver does with each check's delivery, when it did not. */
const MUST: Record<ReceiverCheckName, string> = {
  valid: 'It must answer 2xx, quickly, to a delivery that verifies.',
  forged_signature: `It must compute the HMAC-SHA256 of "<t>.<raw body>" with its secret and refuse the delivery when no v1 matches ${ANY_REFUSAL}.`,
  tampered_body: `It must compute the HMAC over the raw body bytes it received (not a re-serialized JSON) and refuse the delivery when no v1 matches ${ANY_REFUSAL}.`,
  wrong_secret: `It must verify with its own endpoint's secret (the one given with --secret) and refuse a delivery signed with any other ${ANY_REFUSAL}.`,
  expired_timestamp: `It must read t and refuse the delivery when t is ${SIGNATURE_TOLERANCE_SECONDS} seconds or more old, even though the HMAC matches: that is a replayed delivery ${ANY_REFUSAL}.`,
  future_timestamp: `It must read t and refuse the delivery when t is in the future, even though the HMAC matches ${ANY_REFUSAL}.`,
  missing_signature: `It must refuse a delivery without a ${SIGNATURE_HEADER} header ${ANY_REFUSAL}.`,
  duplicate_delivery:
    "It must answer 2xx again (and not do the work twice: dedupe on the event's id); a refused duplicate is retried, as a failed delivery is.",
};

const QUOTE: Record<ReceiverCheckName, string> = {
  valid: REFERENCE.answer,
  forged_signature: REFERENCE.hmac,
  tampered_body: REFERENCE.hmac,
  wrong_secret: REFERENCE.hmac,
  expired_timestamp: REFERENCE.age,
  future_timestamp: REFERENCE.age,
  missing_signature: REFERENCE.header,
  duplicate_delivery: REFERENCE.retries,
};

/** A secret that is surely not the receiver's: its own, changed. */
function otherSecretThan(secret: string): string {
  const other = 'whsec_checkReceiverWrongSecret0000';
  return other === secret ? `${other}1` : other;
}

/** The body with its last digit changed (a timestamp's: every event has some), so it is still JSON, one byte different. */
function tamper(body: string): { body: string; change: string } {
  const index = body.search(/\d(?=\D*$)/);
  const digit = body.charAt(index);
  const replacement = String((Number(digit) + 1) % 10);
  return {
    body: body.slice(0, index) + replacement + body.slice(index + 1),
    change: `"${digit}" → "${replacement}" at character ${index + 1} of ${body.length}`,
  };
}

/** The header with the last hex digit of its v1 changed: what a receiver that compares only a prefix accepts. */
function forge(header: string): string {
  return header.replace(/[0-9a-f]$/, (digit) => ((Number.parseInt(digit, 16) + 1) % 16).toString(16));
}

function checkUrl(url: string | URL): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(
      `checkReceiver: the receiver's URL must be an absolute http:// or https:// URL, such as http://127.0.0.1:4242/webhooks; received "${String(url)}".`,
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new TypeError(
      `checkReceiver: the receiver's URL must use http or https, not ${parsed.protocol.slice(0, -1)} ("${parsed.href}").`,
    );
  }
  return parsed;
}

function checkSecret(secret: unknown): string {
  if (typeof secret === 'string' && /^whsec_\S+$/.test(secret)) return secret;
  const received = typeof secret === 'string' ? `"${secret}"` : String(secret);
  throw new TypeError(
    `checkReceiver: the secret must be the whsec_… signing secret your receiver verifies with (whsec_ and at least one more character, no spaces); received ${received}.`,
  );
}

function checkOptions(options: CheckReceiverOptions): { timeoutMs: number; type: EventType } {
  const timeoutMs = options.timeoutMs ?? CHECK_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0 || timeoutMs > 600_000) {
    throw new TypeError(`checkReceiver: timeoutMs must be a number of milliseconds above 0, at most 600000; received ${timeoutMs}.`);
  }
  const type = options.type ?? 'job.created';
  if (!(EVENT_TYPES as readonly string[]).includes(type)) {
    throw new TypeError(`checkReceiver: type must be one of the event types (${EVENT_TYPES.join(', ')}); received "${type}".`);
  }
  return { timeoutMs, type };
}

/** The checks a correct receiver accepts (2xx); it refuses the others. */
function accepts(name: ReceiverCheckName): boolean {
  return name === 'valid' || name === 'duplicate_delivery';
}

const isRedirect = (status: number) => status >= 300 && status < 400;

function answerText(answer: PostAnswer): string {
  if (answer.status === null) return `no answer: ${answer.error}`;
  if (isRedirect(answer.status)) {
    const to = answer.location === undefined ? 'with no Location' : `to ${answer.location}`;
    return `the receiver answered ${answer.status}, a redirect ${to} (not followed: a delivery goes to the endpoint's URL only)`;
  }
  return `the receiver answered ${answer.status}${answer.excerpt === '' ? '' : ` ("${answer.excerpt}")`}`;
}

/** What a failed check's line adds to MUST for this answer: the likely cause, or what a non-answer means. */
function hintFor(name: ReceiverCheckName, answer: PostAnswer, timeoutMs: number): string {
  if (answer.status === null) {
    return accepts(name)
      ? ` No answer within ${timeoutMs / 1000} s is a failed delivery, retried.`
      : ' It must answer, with a status that is not 2xx: no answer is taken as an outage, and the delivery is retried.';
  }
  if (isRedirect(answer.status) && accepts(name)) {
    return ' The receiver redirected: deliveries are never redirected, so give the URL that answers the POST itself.';
  }
  if (name === 'valid' && (answer.status === 400 || answer.status === 401 || answer.status === 403)) {
    return ' A refusal here usually means it verifies with another secret than the one given, or verifies a re-serialized body rather than the raw bytes.';
  }
  return '';
}

interface Delivery {
  name: ReceiverCheckName;
  event: SampleEvent;
  body: string;
  header: string | undefined;
  sent: string;
}

/** Which sample event each check delivers: one of its own, but the duplicate repeats the valid one. */
const EVENT_INDEX: Record<ReceiverCheckName, number> = {
  valid: 0,
  forged_signature: 1,
  tampered_body: 2,
  wrong_secret: 3,
  expired_timestamp: 4,
  future_timestamp: 5,
  missing_signature: 6,
  duplicate_delivery: 0,
};

/** A check's delivery, signed at `now` (unix seconds). */
function deliveryOf(name: ReceiverCheckName, now: number, secret: string, events: readonly SampleEvent[]): Delivery {
  const event = events[EVENT_INDEX[name]] as SampleEvent;
  const base = { name, event, body: event.body };
  const label = `${event.type} ${event.id}`;
  switch (name) {
    case 'valid':
      return { ...base, header: signPayload(event.body, secret, now), sent: `${label} signed now (t=${now}) with the secret` };
    case 'forged_signature':
      return {
        ...base,
        header: forge(signPayload(event.body, secret, now)),
        sent: `${label} with t=${now} and a v1 that is not the HMAC of "<t>.<body>" (the right one with its last digit changed)`,
      };
    case 'tampered_body': {
      const tampered = tamper(event.body);
      return {
        ...base,
        body: tampered.body,
        header: signPayload(event.body, secret, now),
        sent: `${label} signed correctly (t=${now}), then one byte of the body changed (${tampered.change})`,
      };
    }
    case 'wrong_secret': {
      const other = otherSecretThan(secret);
      return { ...base, header: signPayload(event.body, other, now), sent: `${label} signed now (t=${now}) with another secret, ${other}` };
    }
    case 'expired_timestamp': {
      const t = now - SIGNATURE_TOLERANCE_SECONDS;
      return {
        ...base,
        header: signPayload(event.body, secret, t),
        sent: `${label} signed correctly with t=${t}, ${SIGNATURE_TOLERANCE_SECONDS} s old`,
      };
    }
    case 'future_timestamp': {
      const t = now + SIGNATURE_TOLERANCE_SECONDS;
      return {
        ...base,
        header: signPayload(event.body, secret, t),
        sent: `${label} signed correctly with t=${t}, ${SIGNATURE_TOLERANCE_SECONDS} s ahead`,
      };
    }
    case 'missing_signature':
      return { ...base, header: undefined, sent: `${label} with no ${SIGNATURE_HEADER} header` };
    case 'duplicate_delivery':
      return {
        ...base,
        header: signPayload(event.body, secret, now),
        sent: `${label} again: the body of the valid check byte for byte, signed again now (t=${now}) as a retry is`,
      };
  }
}

/** Unix seconds: of the clock given, or else of the real clock as each delivery goes out. */
function signingTime(now: Date | number | undefined): number {
  if (now === undefined) return Math.floor(Date.now() / 1000);
  return Math.floor(typeof now === 'number' ? now : now.getTime() / 1000);
}

/**
 * Runs the eight checks in order and reports each. Throws a TypeError for a URL that is not
 * http(s) or a secret that is not whsec_…; never throws for what the receiver does.
 */
export async function checkReceiver(url: string | URL, options: CheckReceiverOptions): Promise<ReceiverReport> {
  const target = checkUrl(url);
  // Called from plain JavaScript, the options may be missing altogether: that is a missing secret.
  const secret = checkSecret((options as CheckReceiverOptions | undefined)?.secret);
  const { timeoutMs, type } = checkOptions(options);
  // No seed given: createSandbox's own default, the published seed.
  const sandbox = createSandbox({ seed: options.seed });
  // One event per delivery, so no check is answered by the receiver's dedupe of another's event;
  // all of one type, so no check is refused merely for a type the receiver does not handle.
  const events = await sampleEventsOfType(sandbox, type, 7);
  const userAgent = options.userAgent ?? 'waste-operations-sandbox check-receiver';

  const checks: ReceiverCheck[] = [];
  /** The duplicate repeats the valid delivery: when that one failed, this one fails for the same cause. */
  const repeats = (name: ReceiverCheckName) =>
    name === 'duplicate_delivery' && !(checks[0] as ReceiverCheck).ok
      ? ' The valid check failed too, and this delivery repeats it: fix that one first.'
      : '';
  const send = async (delivery: Delivery): Promise<PostAnswer> => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json', 'User-Agent': userAgent };
    if (delivery.header !== undefined) headers[SIGNATURE_HEADER] = delivery.header;
    const answer = await postOnce(target, delivery.body, headers, timeoutMs);
    const accepting = accepts(delivery.name);
    const status = answer.status ?? 0;
    const is2xx = status >= 200 && status < 300;
    // A refusal is an answer: no answer at all is taken as an outage, and retried.
    const ok = accepting ? is2xx : answer.status !== null && !is2xx;
    const check: ReceiverCheck = {
      name: delivery.name,
      ok,
      status: answer.status,
      ...(answer.error === undefined ? {} : { error: answer.error }),
      ...(answer.location === undefined ? {} : { location: answer.location }),
      expected: accepting ? '2xx' : 'not 2xx',
      event: { id: delivery.event.id, type: delivery.event.type },
      sent: delivery.sent,
      answer: answerText(answer),
      ...(ok
        ? {}
        : { must: `${MUST[delivery.name]}${hintFor(delivery.name, answer, timeoutMs)}${repeats(delivery.name)} ${QUOTE[delivery.name]}` }),
    };
    checks.push(check);
    options.onCheck?.(check);
    return answer;
  };

  // Each delivery is signed as it goes out, so the valid ones are fresh however slow the receiver.
  for (const name of RECEIVER_CHECKS) {
    const answer = await send(deliveryOf(name, signingTime(options.now), secret, events));
    // Nothing listens there at all: seven more "connection refused" would say nothing more.
    if (name === 'valid' && answer.unreachable) {
      return { url: target.href, ok: false, checks, unreachable: answer.error as string };
    }
  }
  return { url: target.href, ok: checks.every((check) => check.ok), checks };
}
