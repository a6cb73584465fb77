// What src/node-server.ts does with a request Node's parser refuses, or one too slow (issue #18):
// which connections get an answer and which are closed without one, the answer's framing and
// headers as they go on the wire, a refusal met while a body is being drained or while another
// request's answer is pending (pipelining), and the socket of a client that never lets go. The
// words of each refusal are test/http-edge's business; here they only tell which refusal it was.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { allRead, type Edge, openPeer, readAnswer, startEdge, until, wholeAnswer } from './edge.js';

/** Time-outs of a fraction of a second, so a 408 comes at once; a policy of its own. */
const LIMITS = { headersTimeoutMs: 200, requestTimeoutMs: 400, connectionsCheckingIntervalMs: 50, rateLimitPolicy: '9;w=1' };
const EXPOSED = 'Request-Id, RateLimit-Policy, Retry-After, Idempotent-Replayed, Sandbox-Fault';
const HTTP_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d GMT$/;

let edge: Edge;
/** Opens the requests to /held, which the handler answers only then. */
let release: () => void = () => {};
let held: Promise<void> = Promise.resolve();

beforeAll(async () => {
  edge = await startEdge(async (request) => {
    const path = new URL(request.url).pathname;
    // A handler still at work, its body unread (the app waiting on a delay, or on a slow store).
    if (path === '/held') await held;
    return new Response(`answered ${request.method} ${path}`, { status: 200, headers: { 'Content-Type': 'text/plain' } });
  }, LIMITS);
});

afterEach(() => {
  vi.useRealTimers();
  release();
});

afterAll(async () => {
  await edge.close();
});

function hold(): void {
  held = new Promise((resolve) => {
    release = resolve;
  });
}

/** Sends `bytes` on a new connection and reads until the server closed it. */
async function exchange(bytes: string): Promise<{ raw: Buffer; error: string | undefined }> {
  const peer = await openPeer(edge.port);
  await peer.send(bytes);
  const error = await peer.finish();
  return { raw: peer.received(), error };
}

const BAD_LINE = 'GET /v1/jobs/a\u0001b HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';

describe("the refusal's answer on the wire", () => {
  it('without Origin: the status line, then Content-Type, RateLimit-Policy, Request-Id, Date, Connection: close, Content-Length', async () => {
    const { raw, error } = await exchange(BAD_LINE);
    expect(error).toBeUndefined();
    const answer = readAnswer(raw);
    expect(answer.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(answer.names).toEqual(['Content-Type', 'RateLimit-Policy', 'Request-Id', 'Date', 'Connection', 'Content-Length']);
    expect(answer.header('Content-Type')).toBe('application/json');
    expect(answer.header('RateLimit-Policy')).toBe('9;w=1');
    expect(answer.header('Request-Id')).toMatch(/^req_[0-9A-Za-z]{24}$/);
    expect(answer.header('Date')).toMatch(HTTP_DATE);
    expect(answer.header('Connection')).toBe('close');
    expect(Number(answer.header('Content-Length'))).toBe(answer.body.length);
    expect(answer.rest.length, 'nothing after the answer').toBe(0);
    expect(JSON.parse(answer.body.toString('utf8'))).toEqual({
      error: {
        type: 'invalid_request_error',
        code: 'parameter_invalid',
        message: expect.any(String),
        doc_url: '/docs/errors#parameter_invalid',
        request_id: answer.header('Request-Id'),
      },
    });
  });

  it('with Origin: the two CORS headers after RateLimit-Policy, as the app sends them to a browser', async () => {
    const { raw } = await exchange('GET /v1/jobs/a\u0001b HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: https://example.com\r\n\r\n');
    const answer = readAnswer(raw);
    expect(answer.names).toEqual([
      'Content-Type',
      'RateLimit-Policy',
      'Access-Control-Allow-Origin',
      'Access-Control-Expose-Headers',
      'Request-Id',
      'Date',
      'Connection',
      'Content-Length',
    ]);
    expect(answer.header('Access-Control-Allow-Origin')).toBe('*');
    expect(answer.header('Access-Control-Expose-Headers')).toBe(EXPOSED);
  });

  it('a refused header names it as the param', async () => {
    const { raw } = await exchange('GET /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nIdempotency-Key: a\u0001b\r\n\r\n');
    expect(JSON.parse(readAnswer(raw).body.toString('utf8')).error.param).toBe('Idempotency-Key');
  });

  it('a 431 has its own status line; the default limit is 16 KiB, and the default policy 25;w=1', async () => {
    // docs/behaviour.md, "Slow clients": "request line and headers over 16 KiB are a 431";
    // SANDBOX.md: "sandbox policy: `25;w=1`".
    const plain = await startEdge(() => new Response('fine', { status: 200 }));
    try {
      const padded = (bytes: number) =>
        `GET /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: ${'a'.repeat(bytes)}\r\nConnection: close\r\n\r\n`;
      const send = async (request: string) => {
        const peer = await openPeer(plain.port);
        await peer.send(request);
        await peer.finish();
        return readAnswer(peer.received());
      };
      expect((await send(padded(15 * 1024))).statusLine).toBe('HTTP/1.1 200 OK');
      const over = await send(padded(17 * 1024));
      expect(over.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
      expect(over.header('RateLimit-Policy')).toBe('25;w=1');
      expect(JSON.parse(over.body.toString('utf8')).error.message).toContain('16 KiB');
    } finally {
      await plain.close();
    }
  });
});

describe('a request too slow (408)', () => {
  it('in its headers: the answer says so, with CORS (whether Origin came is unknown) and a body', async () => {
    const { raw } = await exchange('GET /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const answer = readAnswer(raw);
    expect(answer.statusLine).toBe('HTTP/1.1 408 Request Timeout');
    expect(answer.header('Access-Control-Allow-Origin')).toBe('*');
    expect(JSON.parse(answer.body.toString('utf8')).error.message).toMatch(/\bheaders\b/);
  });

  it('in its body, without Origin: a 408 about the body, without CORS', async () => {
    hold();
    const { raw } = await exchange('POST /held HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\n\r\nab');
    const answer = readAnswer(raw);
    expect(answer.statusLine).toBe('HTTP/1.1 408 Request Timeout');
    expect(answer.names).toEqual(['Content-Type', 'RateLimit-Policy', 'Request-Id', 'Date', 'Connection', 'Content-Length']);
    // Which 408 it is: the headers had come, so the message is about the body.
    expect(JSON.parse(answer.body.toString('utf8')).error.message).toMatch(/\bbody\b/);
  });

  it('in its body, with Origin: with CORS', async () => {
    hold();
    const { raw } = await exchange('POST /held HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: https://example.com\r\nContent-Length: 10\r\n\r\nab');
    const answer = readAnswer(raw);
    expect(answer.statusLine).toBe('HTTP/1.1 408 Request Timeout');
    expect(answer.header('Access-Control-Allow-Origin')).toBe('*');
    expect(answer.header('Access-Control-Expose-Headers')).toBe(EXPOSED);
  });

  it('a HEAD, in its body: the head alone, as for any HEAD', async () => {
    hold();
    const { raw } = await exchange('HEAD /held HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: https://example.com\r\nContent-Length: 10\r\n\r\nab');
    const answer = readAnswer(raw, 'HEAD');
    expect(answer.statusLine).toBe('HTTP/1.1 408 Request Timeout');
    expect(answer.header('Access-Control-Allow-Origin')).toBe('*');
    expect(Number(answer.header('Content-Length'))).toBeGreaterThan(0);
    expect(answer.rest.length, 'no body after the head').toBe(0);
  });
});

describe('connections that get no answer, or keep the one they got', () => {
  it('a refusal behind a pending answer (pipelining) closes the connection without a byte', async () => {
    hold();
    // The first request is at the handler when the second one is refused: a 400 now would be
    // read as the first one's answer.
    const { raw, error } = await exchange(`GET /held HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n${BAD_LINE}`);
    expect(error).toBeUndefined();
    expect(raw.toString('latin1')).toBe('');
  });

  it('a refusal in the body of a request behind a pending answer closes the connection without a byte too', async () => {
    hold();
    // The parser has read the second request's headers (it is in its body) while the first one's
    // answer is pending: a 400 now would still be read as the first one's answer.
    const { raw, error } = await exchange(
      'GET /held HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nPOST /p HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
    );
    expect(error).toBeUndefined();
    expect(raw.toString('latin1')).toBe('');
  });

  it('bytes sent after the refusal are read and dropped: the answer stands, the socket stays until the client ends', async () => {
    const peer = await openPeer(edge.port);
    await peer.send(BAD_LINE);
    const socket = await edge.serverSide(peer);
    await until(() => wholeAnswer(peer.received()) && peer.ended, 'the answer, then the end of the server side');
    // Each chunk meets the parser's error again.
    await peer.send('more bytes');
    await allRead(socket, peer);
    await peer.send(Buffer.alloc(256 * 1024, 0x61));
    await allRead(socket, peer);
    expect(socket.destroyed, 'the socket kept while the client sends').toBe(false);
    expect(await peer.finish()).toBeUndefined();
    const answer = readAnswer(peer.received());
    expect(answer.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(answer.rest.length, 'one answer').toBe(0);
  });

  it('a client that sends its body before reading reads its refusal whole', async () => {
    const peer = await openPeer(edge.port, { paused: true });
    await peer.send(BAD_LINE);
    for (let piece = 0; piece < 16; piece++) await peer.send(Buffer.alloc(64 * 1024, 0x61));
    expect(await peer.finish()).toBeUndefined();
    expect(readAnswer(peer.received()).statusLine).toBe('HTTP/1.1 400 Bad Request');
  });

  it('a time-out while a refused body drains is the drain’s: no 408 is written into it, the body is read to its end', async () => {
    // The drain's own bounds faked away: only Node's time-out (400 ms here, real) is met.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const timedOut: unknown[] = [];
    const watch = (error: { code?: string }, socket: unknown) => {
      if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') timedOut.push(socket);
    };
    edge.server.on('clientError', watch);
    try {
      const peer = await openPeer(edge.port);
      // Answered at once, the body still to come.
      await peer.send('POST /answer HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 20\r\n\r\nbbbbb');
      const socket = await edge.serverSide(peer);
      await until(() => timedOut.includes(socket), "Node's request time-out on the connection");
      await peer.send('b'.repeat(15));
      await allRead(socket, peer);
      expect(await peer.finish()).toBeUndefined();
      const answer = readAnswer(peer.received());
      expect(answer.statusLine).toBe('HTTP/1.1 200 OK');
      expect(answer.body.toString('latin1')).toBe('answered POST /answer');
      expect(answer.rest.length, 'nothing after the answer').toBe(0);
    } finally {
      edge.server.off('clientError', watch);
    }
  });

  it('a client that neither ends nor goes after its refusal is dropped 10 s on', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const peer = await openPeer(edge.port);
    await peer.send(BAD_LINE);
    const socket = await edge.serverSide(peer);
    await until(() => wholeAnswer(peer.received()) && peer.ended, 'the answer, then the end of the server side');
    vi.advanceTimersByTime(9_999);
    // Still read (and dropped): the client may go on sending.
    await peer.send('x');
    await allRead(socket, peer);
    expect(socket.destroyed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(socket.destroyed).toBe(true);
    // Gone: what the client sends now is answered with a reset, which its next write meets.
    await until(() => {
      if (peer.error === undefined) void peer.send('y');
      return peer.error !== undefined;
    }, 'the client meeting the reset');
    expect(await peer.closed).toMatch(/^(ECONNRESET|EPIPE)$/);
  });
});
