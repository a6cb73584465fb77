// How the events of writes reach the operator's receiver (SANDBOX.md, "Events from writes";
// docs/events-from-writes.md, "Delivery"): the bounded dispatcher of the Node entry points, the
// per-request delivery of Workers, and the lines they log. The lines said whatever the log setting
// (an event given up on, dropped, or abandoned at a stop) are checked word for word, as written
// in docs/events-from-writes.md. test/events/events-from-writes.test.ts holds the writes that
// emit and the queue's bound; this file holds the dispatcher's own behaviour.
//
// Real receivers on loopback where an answer matters; where time matters (a delayed event, the
// pump, the drop report, idle's deadline), fetch is stubbed and the clock faked, as in
// test/webhooks.test.ts, so each time is checked exactly and nothing waits.
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeliveryAttempt } from '../../src/webhooks/deliver.js';
import { describeDelivery, RequestScopedDelivery, refusedSignature, WebhookDispatcher } from '../../src/webhooks/dispatcher.js';
import { signedTarget } from '../../src/webhooks/target.js';
import { type Delivery, type Receiver, startReceiver } from '../events/receiver.js';
import type { WriteEvent } from '../../src/webhooks/write-events.js';

const SECRET = 'whsec_dispatcherTestSecret012345';

/** The n-th event of a test: its ID and type are what the log lines name. */
function event(n: number, type: WriteEvent['type'] = 'job.created'): WriteEvent {
  const id = `evt_dispatchTest${String(n).padStart(4, '0')}`;
  return { id, type, body: `{"id":"${id}","object":"event","type":"${type}"}` };
}

const servers: Server[] = [];
const receivers: Receiver[] = [];
afterEach(async () => {
  // Spies first: a spy on the faked setTimeout would otherwise put the fake back after the clock's.
  vi.restoreAllMocks();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  for (const started of receivers.splice(0)) await started.close();
  for (const server of servers.splice(0)) await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A receiver on loopback answering the statuses given, in turn (then 200). */
async function receiver(statuses: number[] = []): Promise<{ url: string; received: Delivery[] }> {
  const started = await startReceiver();
  started.answers.push(...statuses);
  receivers.push(started);
  return { url: started.url, received: started.deliveries };
}

/** A URL on which nothing listens: a port opened, then closed. */
async function closedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/webhooks`;
}

/** The reference's signature, checked without src/: v1 is the HMAC-SHA256 of "<t>.<body>". */
function signedBySecret(delivery: Delivery): boolean {
  const [, t, v1] = (delivery.signature ?? '').match(/^t=(\d+),v1=([0-9a-f]{64})$/) ?? [];
  return v1 === createHmac('sha256', SECRET).update(`${t}.${delivery.body}`).digest('hex');
}

/** What the line of an event given up on says after a 400 or 401 (docs/events-from-writes.md). */
const SECRET_HINT =
  "; the receiver may have refused the signature: it must verify with the sandbox's signing secret (the one given with --webhook-secret, SANDBOX_WEBHOOK_SECRET or createSandbox({ webhook: { secret } }), or the one the sandbox printed at start)";

describe('WebhookDispatcher, against a receiver', () => {
  it('tells onAttempt of each attempt with its event, and says nothing once delivered', async () => {
    const { url, received } = await receiver([503]);
    const told: [WriteEvent, DeliveryAttempt][] = [];
    const warnings: string[] = [];
    const dispatcher = new WebhookDispatcher(
      { url, secret: SECRET, events: '*' },
      { backoffMs: 1, onAttempt: (e, attempt) => told.push([e, attempt]), warn: (message) => warnings.push(message) },
    );
    await dispatcher.emit(event(1));
    expect(told).toEqual([
      [event(1), { attempt: 1, status: 503, ms: expect.any(Number), delivered: false }],
      [event(1), { attempt: 2, status: 200, ms: expect.any(Number), delivered: true }],
    ]);
    expect(warnings).toEqual([]);
    expect(received.map((delivery) => delivery.body)).toEqual([event(1).body, event(1).body]);
    expect(received.every(signedBySecret)).toBe(true);
  });

  it('sends User-Agent: waste-operations-sandbox, or the one given', async () => {
    const { url, received } = await receiver();
    await new WebhookDispatcher({ url, secret: SECRET, events: '*' }).emit(event(1));
    await new WebhookDispatcher({ url, secret: SECRET, events: '*' }, { userAgent: 'my-sandbox/2' }).emit(event(2));
    expect(received.map((delivery) => delivery.userAgent)).toEqual(['waste-operations-sandbox', 'my-sandbox/2']);
  });

  it.each([
    [[500, 500], ' (answered 500)'],
    [[401, 401], ` (answered 401)${SECRET_HINT}`],
    [[500, 400], ` (answered 400)${SECRET_HINT}`],
    [[401, 503], ' (answered 503)'],
  ])('gives up after %j, saying the last answer: "…%s"', async (statuses, end) => {
    const { url, received } = await receiver([...statuses]);
    const warnings: string[] = [];
    const dispatcher = new WebhookDispatcher(
      { url, secret: SECRET, events: '*' },
      { attempts: 2, backoffMs: 1, warn: (message) => warnings.push(message) },
    );
    await dispatcher.emit(event(7));
    expect(received).toHaveLength(2);
    expect(warnings).toEqual([`webhook: gave up on job.created evt_dispatchTest0007 after 2 attempts to ${url}${end}`]);
  });

  it('gives up on a receiver that is not there with the reason, and no hint about the signature', async () => {
    const url = await closedUrl();
    const warnings: string[] = [];
    await new WebhookDispatcher({ url, secret: SECRET, events: '*' }, { attempts: 1, warn: (message) => warnings.push(message) }).emit(
      event(3),
    );
    expect(warnings).toEqual([`webhook: gave up on job.created evt_dispatchTest0003 after 1 attempts to ${url} (connection refused)`]);
  });

  it('with no attempt at all (attempts: 0), gives up saying there was no answer', async () => {
    const { url, received } = await receiver();
    const warnings: string[] = [];
    await new WebhookDispatcher({ url, secret: SECRET, events: '*' }, { attempts: 0, warn: (message) => warnings.push(message) }).emit(
      event(4),
    );
    expect(received).toEqual([]);
    expect(warnings).toEqual([`webhook: gave up on job.created evt_dispatchTest0004 after 0 attempts to ${url} (no answer)`]);
  });

  it('says what must be said on stderr when no warn is given', async () => {
    const { url } = await receiver([500]);
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    await new WebhookDispatcher({ url, secret: SECRET, events: '*' }, { attempts: 1 }).emit(event(5));
    expect(error.mock.calls).toEqual([[`webhook: gave up on job.created evt_dispatchTest0005 after 1 attempts to ${url} (answered 500)`]]);
  });
});

describe('RequestScopedDelivery (Workers), against a receiver', () => {
  it('delivers each wanted event within the promise emit returns, signed; an unwanted type gets no promise and no delivery', async () => {
    const { url, received } = await receiver();
    const delivery = new RequestScopedDelivery({ url, secret: SECRET, events: ['container.received'] });
    expect(delivery.emit(event(1, 'job.created'))).toBeUndefined();
    const emitted = delivery.emit(event(2, 'container.received'));
    expect(emitted).toBeInstanceOf(Promise);
    await emitted;
    expect(received.map((one) => [one.body, one.userAgent])).toEqual([[event(2, 'container.received').body, 'waste-operations-sandbox']]);
    expect(received.every(signedBySecret)).toBe(true);
  });

  it('uses the options given: attempts, onAttempt and warn', async () => {
    const { url, received } = await receiver([401]);
    const told: DeliveryAttempt[] = [];
    const warnings: string[] = [];
    await new RequestScopedDelivery(
      { url, secret: SECRET, events: '*' },
      { attempts: 1, onAttempt: (_, attempt) => told.push(attempt), warn: (message) => warnings.push(message) },
    ).emit(event(3));
    expect(received).toHaveLength(1);
    expect(told).toEqual([{ attempt: 1, status: 401, ms: expect.any(Number), delivered: false }]);
    expect(warnings).toEqual([
      `webhook: gave up on job.created evt_dispatchTest0003 after 1 attempts to ${url} (answered 401)${SECRET_HINT}`,
    ]);
  });
});

describe('on a faked clock', () => {
  const TARGET_URL = 'http://127.0.0.1:9/webhooks';
  /** When (ms after the test's start, on the fake clock) each request went out, and for which event. */
  let sent: { at: number; id: string }[];
  let start: number;
  let warnings: string[];

  /** fetch stubbed: each request recorded, then answered as `answer` says (never, by default). */
  function stubFetch(answer: () => Promise<Response> = () => new Promise<Response>(() => {})): void {
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      sent.push({ at: Date.now() - start, id: JSON.parse(String(init.body)).id });
      return answer();
    });
  }

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    start = Date.now();
    sent = [];
    warnings = [];
  });

  const dispatcherWith = (options: ConstructorParameters<typeof WebhookDispatcher>[1] = {}) =>
    new WebhookDispatcher({ url: TARGET_URL, secret: SECRET, events: '*' }, { warn: (message) => warnings.push(message), ...options });

  it('an event emitted for later waits that long, counted as pending and named if abandoned meanwhile', async () => {
    stubFetch(async () => new Response(null, { status: 200 }));
    const dispatcher = dispatcherWith();
    let settled = false;
    void dispatcher.emit(event(1), 1000)?.then(() => {
      settled = true;
    });
    expect(dispatcher.pending).toBe(1);
    dispatcher.reportAbandoned();
    expect(warnings).toEqual([
      `webhook: stopping with 1 event not delivered to ${TARGET_URL}, abandoned: job.created evt_dispatchTest0001`,
    ]);
    // idle() waits for it too.
    let idle = false;
    void dispatcher.idle(5_000).then(() => {
      idle = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(sent).toEqual([]);
    expect(idle).toBe(false);
    // Its wait is over at 1000 ms; the delivery then starts on a later turn, as every delivery does
    // (a 0 ms timer, which the fake clock runs 1 ms later when it is set during a tick).
    await vi.advanceTimersByTimeAsync(2);
    expect(sent).toEqual([{ at: 1001, id: 'evt_dispatchTest0001' }]);
    await vi.advanceTimersByTimeAsync(10);
    expect(settled).toBe(true);
    expect(idle).toBe(true);
    expect(dispatcher.pending).toBe(0);
  });

  it('RequestScopedDelivery: an event emitted for later goes out that long after', async () => {
    stubFetch(async () => new Response(null, { status: 204 }));
    let settled = false;
    void new RequestScopedDelivery({ url: TARGET_URL, secret: SECRET, events: '*' }).emit(event(2), 1000)?.then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toEqual([{ at: 1000, id: 'evt_dispatchTest0002' }]);
    expect(settled).toBe(true);
  });

  it('a burst of writes sets one timer to start its deliveries, and a later write sets another', async () => {
    stubFetch(async () => new Response(null, { status: 200 }));
    const dispatcher = dispatcherWith();
    const burst = [1, 2, 3].map((n) => dispatcher.emit(event(n)));
    // Nothing goes out within the write's turn, and one timer (not one per event) will start it.
    expect(sent).toEqual([]);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(0);
    await Promise.all(burst);
    expect(sent.map((one) => one.id)).toEqual(['evt_dispatchTest0001', 'evt_dispatchTest0002', 'evt_dispatchTest0003']);
    // Everything delivered: a write after that is started by a timer of its own.
    const later = dispatcher.emit(event(4));
    await vi.advanceTimersByTimeAsync(0);
    await later;
    expect(sent.map((one) => one.id)).toEqual([
      'evt_dispatchTest0001',
      'evt_dispatchTest0002',
      'evt_dispatchTest0003',
      'evt_dispatchTest0004',
    ]);
    expect(warnings).toEqual([]);
  });

  it('at most maxInFlight deliveries at once; the rest wait, and a stop names them all, those in flight first', async () => {
    stubFetch();
    const dispatcher = dispatcherWith({ maxInFlight: 2 });
    for (const n of [1, 2, 3, 4, 5]) void dispatcher.emit(event(n));
    await vi.advanceTimersByTimeAsync(0);
    expect(sent.map((one) => one.id)).toEqual(['evt_dispatchTest0001', 'evt_dispatchTest0002']);
    expect(dispatcher.pending).toBe(5);
    dispatcher.reportAbandoned();
    expect(warnings).toEqual([
      `webhook: stopping with 5 events not delivered to ${TARGET_URL}, abandoned: job.created evt_dispatchTest0001, job.created evt_dispatchTest0002, job.created evt_dispatchTest0003, job.created evt_dispatchTest0004, job.created evt_dispatchTest0005`,
    ]);
  });

  it('a stop names at most ten events and counts the rest; with nothing pending it says nothing', () => {
    stubFetch();
    const names = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, i) => `job.created evt_dispatchTest${String(from + i).padStart(4, '0')}`).join(', ');
    const abandoned = (count: number) => {
      warnings.length = 0;
      const dispatcher = dispatcherWith();
      for (let n = 1; n <= count; n++) void dispatcher.emit(event(n));
      dispatcher.reportAbandoned();
      return warnings;
    };
    expect(abandoned(0)).toEqual([]);
    expect(abandoned(2)).toEqual([`webhook: stopping with 2 events not delivered to ${TARGET_URL}, abandoned: ${names(1, 2)}`]);
    expect(abandoned(10)).toEqual([`webhook: stopping with 10 events not delivered to ${TARGET_URL}, abandoned: ${names(1, 10)}`]);
    expect(abandoned(11)).toEqual([
      `webhook: stopping with 11 events not delivered to ${TARGET_URL}, abandoned: ${names(1, 10)} and 1 more`,
    ]);
    expect(abandoned(13)).toEqual([
      `webhook: stopping with 13 events not delivered to ${TARGET_URL}, abandoned: ${names(1, 10)} and 3 more`,
    ]);
  });

  it('drops are said at once, then at most once every 5 s with the count since the last line', async () => {
    stubFetch();
    const dispatcher = dispatcherWith({ maxQueued: 2 });
    const settled: number[] = [];
    const emit = (n: number) => void dispatcher.emit(event(n))?.then(() => settled.push(n));
    const wait = `2 events already wait for ${TARGET_URL}`;
    // The deliveries' timer never runs here, so the queue stays full: each emit past 2 drops the oldest.
    emit(1);
    emit(2);
    emit(3);
    expect(warnings).toEqual([`webhook: dropped job.created evt_dispatchTest0001: ${wait}`]);
    vi.setSystemTime(start + 4_999);
    emit(4);
    expect(warnings).toHaveLength(1);
    vi.setSystemTime(start + 5_000);
    emit(5);
    expect(warnings).toEqual([
      `webhook: dropped job.created evt_dispatchTest0001: ${wait}`,
      `webhook: dropped 2 events, the last job.created evt_dispatchTest0003: ${wait}`,
    ]);
    vi.setSystemTime(start + 10_000);
    emit(6);
    expect(warnings.at(-1)).toBe(`webhook: dropped job.created evt_dispatchTest0004: ${wait}`);
    // A dropped event's promise settles at once: nothing more will happen to it.
    await Promise.resolve();
    expect(settled).toEqual([1, 2, 3, 4]);
    expect(dispatcher.pending).toBe(2);
  });

  it('idle() gives up waiting at its deadline exactly, however long a delivery hangs', async () => {
    stubFetch();
    const dispatcher = dispatcherWith();
    void dispatcher.emit(event(1));
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toHaveLength(1);
    // While a delivery is in flight, idle() waits for it or for the deadline with one timer: a
    // stop's grace is not spent polling (nor warned about, as a delay past 2^31 - 1 ms would be).
    const timers = vi.spyOn(globalThis, 'setTimeout');
    let idle = false;
    void dispatcher.idle(1_002).then(() => {
      idle = true;
    });
    await vi.advanceTimersByTimeAsync(1_001);
    expect(idle).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(idle).toBe(true);
    expect(timers.mock.calls.map(([, ms]) => ms)).toEqual([1_002]);
    expect(dispatcher.pending).toBe(1);
  });
});

describe('the lines and rules of the log', () => {
  it('describeDelivery: the --log line of an attempt (docs/events-from-writes.md)', () => {
    expect(describeDelivery(event(1), { attempt: 1, status: 200, ms: 3, delivered: true })).toBe(
      'webhook job.created evt_dispatchTest0001 → 200 in 3 ms (attempt 1)',
    );
    expect(describeDelivery(event(2, 'job.scheduled'), { attempt: 3, error: 'connection refused', ms: 12, delivered: false })).toBe(
      'webhook job.scheduled evt_dispatchTest0002 → connection refused in 12 ms (attempt 3)',
    );
    expect(describeDelivery(event(3), { attempt: 2, ms: 0, delivered: false })).toBe(
      'webhook job.created evt_dispatchTest0003 → no answer in 0 ms (attempt 2)',
    );
  });

  it('refusedSignature: a 400 or a 401 may be a refused signature, no other status', () => {
    expect([400, 401].map(refusedSignature)).toEqual([true, true]);
    expect([200, 204, 302, 403, 404, 422, 500, 503].map(refusedSignature)).toEqual(Array(8).fill(false));
  });

  it('signedTarget keeps a configured secret, or makes a whsec_ one, and says which', () => {
    const given = signedTarget({ url: 'http://127.0.0.1:9/', secret: SECRET, events: '*' });
    expect(given).toEqual({ url: 'http://127.0.0.1:9/', secret: SECRET, events: '*', made: false });
    const made = signedTarget({ url: 'http://127.0.0.1:9/', secret: undefined, events: ['job.created'] });
    expect(made).toEqual({
      url: 'http://127.0.0.1:9/',
      secret: expect.stringMatching(/^whsec_[0-9A-Za-z]{32}$/),
      events: ['job.created'],
      made: true,
    });
  });
});
