// One signed delivery with its retries (`deliver`, the code of `trigger` and of the events of
// writes: SANDBOX.md, "Events from writes"; docs/toolkit.md, "Signed webhook deliveries"), against
// real receivers on loopback: what each attempt records, which answers count as delivered, and the
// reason given for each way a receiver can fail to answer. test/webhooks.test.ts drives the same
// code through `trigger`'s printed lines; this file reads deliver's own result. Also the sample
// events `trigger` sends, when the sample data has none of a type.
import { createHmac } from 'node:crypto';
import { type AddressInfo, createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/index.js';
import { deliver } from '../../src/webhooks/deliver.js';
import { sampleEventOfType } from '../../src/webhooks/sample-events.js';
import { type Delivery, type Receiver, startReceiver } from '../events/receiver.js';

const SECRET = 'whsec_deliveryTestSecret01234567';
const BODY = '{"id":"evt_deliveryTest0001","object":"event","type":"job.created"}';

/** Servers a test opened, closed after it whatever happened. */
const opened: TcpServer[] = [];
const receivers: Receiver[] = [];
afterEach(async () => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  for (const started of receivers.splice(0)) await started.close();
  for (const server of opened.splice(0)) await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function listen(server: TcpServer): Promise<string> {
  opened.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
}

/** An HTTP receiver answering the statuses given, in turn (then 200); `onRequest` runs before each answer. */
async function receiver(statuses: number[], onRequest?: () => void): Promise<{ url: string; received: Delivery[] }> {
  const started = await startReceiver(onRequest);
  started.answers.push(...statuses);
  receivers.push(started);
  return { url: started.url, received: started.deliveries };
}

/** A TCP server that does `onData` with each connection once the request's first bytes arrive. */
function tcpReceiver(onData: (socket: Socket) => void): Promise<string> {
  return listen(createTcpServer((socket) => socket.once('data', () => onData(socket))));
}

/** What fetch itself rejects with for a POST to `url` (the expected reason, read without src/). */
async function fetchFailure(url: string, init: RequestInit = {}): Promise<Error & { cause?: Error & { code?: string } }> {
  try {
    await fetch(url, { method: 'POST', body: BODY, ...init });
  } catch (error) {
    return error as Error & { cause?: Error & { code?: string } };
  }
  throw new Error(`fetch ${url} did not fail`);
}

const options = (url: string, more: Partial<Parameters<typeof deliver>[1]> = {}) => ({
  url,
  secret: SECRET,
  timeoutMs: 5_000,
  attempts: 1,
  backoffMs: 1,
  userAgent: 'delivery-test/1',
  ...more,
});

/** The reference's rule, checked without src/: v1 is the HMAC-SHA256 of "<t>.<body>" with the secret. */
function expectSigned(delivery: Delivery): void {
  const match = delivery.signature?.match(/^t=(\d+),v1=([0-9a-f]{64})$/);
  expect(match, delivery.signature).not.toBeNull();
  const [, t, v1] = match as RegExpMatchArray;
  expect(v1).toBe(createHmac('sha256', SECRET).update(`${t}.${delivery.body}`).digest('hex'));
}

describe('deliver: answers', () => {
  it('a 500 is retried; the 200 after it ends the delivery, and the result lists both attempts', async () => {
    const { url, received } = await receiver([500]);
    const told: unknown[] = [];
    const result = await deliver(BODY, options(url, { attempts: 5, onAttempt: (attempt) => told.push(attempt) }));
    expect(result).toEqual({
      delivered: true,
      attempts: [
        { attempt: 1, status: 500, ms: expect.any(Number), delivered: false },
        { attempt: 2, status: 200, ms: expect.any(Number), delivered: true },
      ],
    });
    expect(told).toEqual(result.attempts);
    expect(received).toHaveLength(2);
    for (const delivery of received) {
      expect(delivery).toMatchObject({ body: BODY, contentType: 'application/json', userAgent: 'delivery-test/1' });
      expectSigned(delivery);
    }
  });

  it.each([
    [200, true],
    [204, true],
    [299, true],
    [300, false],
    [302, false],
    [400, false],
    [401, false],
  ])('an answer %i is delivered: %s (2xx only; a redirect is not followed)', async (status, delivered) => {
    const { url, received } = await receiver([status]);
    const result = await deliver(BODY, options(url));
    expect(result).toEqual({ delivered, attempts: [{ attempt: 1, status, ms: expect.any(Number), delivered }] });
    expect(received).toHaveLength(1);
  });

  it('every attempt is tried when none is delivered, and the result says so', async () => {
    const { url, received } = await receiver([503, 502, 500]);
    const result = await deliver(BODY, options(url, { attempts: 3 }));
    expect(result.delivered).toBe(false);
    expect(result.attempts.map(({ attempt, status, delivered }) => ({ attempt, status, delivered }))).toEqual([
      { attempt: 1, status: 503, delivered: false },
      { attempt: 2, status: 502, delivered: false },
      { attempt: 3, status: 500, delivered: false },
    ]);
    expect(received).toHaveLength(3);
  });

  it('ms is the time from the start of an attempt to its answer', async () => {
    // performance.now() is faked (and nothing else, so the sockets and time-outs stay real): the
    // clock moves only by the 250 ms the receiver adds, so the attempt took exactly 250 ms on it.
    vi.useFakeTimers({ toFake: ['performance'] });
    vi.advanceTimersByTime(10_000);
    const { url } = await receiver([], () => vi.advanceTimersByTime(250));
    const result = await deliver(BODY, options(url));
    expect(result.attempts).toEqual([{ attempt: 1, status: 200, ms: 250, delivered: true }]);
  });
});

describe('deliver: no answer, and why', () => {
  /** The one attempt's error when the receiver fails that way. */
  async function failure(url: string, more: Partial<Parameters<typeof deliver>[1]> = {}): Promise<string | undefined> {
    const result = await deliver(BODY, options(url, more));
    // No status, since nothing answered: only the reason.
    expect(result).toEqual({
      delivered: false,
      attempts: [{ attempt: 1, error: expect.any(String), ms: expect.any(Number), delivered: false }],
    });
    expect(result.attempts[0]).not.toHaveProperty('status');
    return result.attempts[0]?.error;
  }

  it('a port nobody listens on: connection refused', async () => {
    const closed = createTcpServer();
    const url = await listen(closed);
    opened.pop();
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await failure(url)).toBe('connection refused');
  });

  it('no answer within the time-out: said in seconds', async () => {
    const url = await tcpReceiver(() => {});
    expect(await failure(url, { timeoutMs: 200 })).toBe('no answer within 0.2 s');
  });

  it('a time-out reported as an AbortError is said the same way', async () => {
    // Node's fetch rejects a timed-out attempt with the signal's TimeoutError (the test above); a
    // fetch that reports the abort under the name AbortError instead gets the same reason. Node 20
    // never does, so fetch is made to reject so.
    vi.stubGlobal('fetch', async () => {
      throw new DOMException('This operation was aborted', 'AbortError');
    });
    expect(await failure('http://127.0.0.1:9/webhooks', { timeoutMs: 1_500 })).toBe('no answer within 1.5 s');
  });

  it('a connection reset once the request arrived (ECONNRESET): closed without an answer', async () => {
    const url = await tcpReceiver((socket) => socket.resetAndDestroy());
    // The receiver does make fetch fail with ECONNRESET, so this is the case it stands for.
    expect((await fetchFailure(url)).cause?.code).toBe('ECONNRESET');
    expect(await failure(url)).toBe('connection closed without an answer');
  });

  it('a connection closed once the request arrived (undici: UND_ERR_SOCKET): closed without an answer', async () => {
    const url = await tcpReceiver((socket) => socket.destroy());
    expect((await fetchFailure(url)).cause?.code).toBe('UND_ERR_SOCKET');
    expect(await failure(url)).toBe('connection closed without an answer');
  });

  it('a host name that does not resolve: host not found', async () => {
    // Whether a lookup fails with ENOTFOUND depends on the machine's resolver (offline it is
    // EAI_AGAIN), so fetch is made to reject as Node's fetch does for an unknown name.
    const lookups: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      lookups.push(url);
      const cause = Object.assign(new Error('getaddrinfo ENOTFOUND hooks.example.invalid'), { code: 'ENOTFOUND' });
      throw new TypeError('fetch failed', { cause });
    });
    expect(await failure('http://hooks.example.invalid/webhooks')).toBe('host not found');
    expect(lookups).toEqual(['http://hooks.example.invalid/webhooks']);
  });

  it('any other network failure gives the reason of its cause, not "fetch failed"', async () => {
    // A receiver that does not speak HTTP: fetch fails with a parser error as its cause.
    const url = await tcpReceiver((socket) => socket.end('garbage\r\n\r\n'));
    const expected = await fetchFailure(url);
    expect(expected.message).toBe('fetch failed');
    expect(expected.cause?.message).toEqual(expect.any(String));
    expect(await failure(url)).toBe(expected.cause?.message);
  });

  it('a failure with no cause gives its own message', async () => {
    // A User-Agent that is not a valid header value: fetch refuses it before any connection.
    const { url, received } = await receiver([]);
    const expected = await fetchFailure(url, { headers: { 'User-Agent': 'bad\nagent' } });
    expect(expected.cause).toBeUndefined();
    expect(await failure(url, { userAgent: 'bad\nagent' })).toBe(expected.message);
    expect(received).toEqual([]);
  });
});

describe('the sample events trigger sends', () => {
  it('the newest event of a type, byte for byte GET /v1/events/{id}', async () => {
    const sandbox = createSandbox();
    const auth = { headers: { Authorization: 'Bearer svc_test_sandbox_public' } };
    const list = await (await sandbox.fetch(new Request('http://sandbox.test/v1/events?type=invoice.paid&limit=1', auth))).json();
    const text = await (await sandbox.fetch(new Request(`http://sandbox.test/v1/events/${list.data[0].id}`, auth))).text();
    expect(await sampleEventOfType(sandbox, 'invoice.paid')).toEqual({ id: list.data[0].id, type: 'invoice.paid', body: text });
  });

  it('a type the events list refuses: an Error naming the seed and the type', async () => {
    const sandbox = createSandbox({ seed: 'sample-events-test' });
    await expect(sampleEventOfType(sandbox, 'job.nonexistent' as never)).rejects.toThrow(
      new Error('the sample data of seed sample-events-test has no job.nonexistent event'),
    );
  });

  /** A sandbox whose events list and event answer as given (a data set without that type). */
  function sandboxAnswering(list: string, event: { status: number; text: string }): Sandbox {
    return {
      seed: 'hand-made',
      webhook: undefined,
      deliveries: async () => {},
      fetch: async (request) =>
        new URL(request.url).pathname === '/v1/events'
          ? new Response(list, { status: 200 })
          : new Response(event.text, { status: event.status }),
    };
  }

  it('an empty list, or a listed event that cannot be read: the same Error', async () => {
    const none = new Error('the sample data of seed hand-made has no job.closed event');
    await expect(
      sampleEventOfType(sandboxAnswering('{"object":"list","data":[]}', { status: 200, text: '{}' }), 'job.closed'),
    ).rejects.toThrow(none);
    await expect(
      sampleEventOfType(
        sandboxAnswering('{"object":"list","data":[{"id":"evt_gone000000001"}]}', { status: 404, text: '{"error":{}}' }),
        'job.closed',
      ),
    ).rejects.toThrow(none);
  });
});
