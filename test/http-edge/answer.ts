// Reading the answer to a refused request off the wire, and the one client test/abuse/loopback.ts
// has not: one that half-closes its side after sending (a request cut short).
import { connect } from 'node:net';
import { expect } from 'vitest';
import type { RawAnswer } from '../abuse/loopback.js';

/** What a refusal must look like: its status line, its error, and what it may depend on. */
export interface ExpectedRefusal {
  status: 400 | 408 | 431;
  reason: 'Bad Request' | 'Request Timeout' | 'Request Header Fields Too Large';
  message: string;
  param?: string;
  /** Whether the answer carries the CORS headers (the request carried Origin, or nobody can tell). */
  cors: boolean;
  /** False for a HEAD: the headers alone. */
  body?: boolean;
}

/** The status line, the headers (names lower-cased) and the bytes after the blank line. */
export function splitAnswer(raw: Buffer): { statusLine: string; headers: Map<string, string>; body: Buffer } {
  const blank = raw.indexOf('\r\n\r\n');
  expect(blank, `no header section in ${JSON.stringify(raw.toString('latin1'))}`).toBeGreaterThan(0);
  const [statusLine = '', ...lines] = raw.subarray(0, blank).toString('latin1').split('\r\n');
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  return { statusLine, headers, body: raw.subarray(blank + 4) };
}

/** The answer is exactly the refusal expected, in the reference's error shape, and the connection closes. */
export function expectRefusal(answer: RawAnswer, expected: ExpectedRefusal): void {
  const { statusLine, headers, body } = splitAnswer(answer.raw);
  expect(statusLine).toBe(`HTTP/1.1 ${expected.status} ${expected.reason}`);
  expect(headers.get('content-type')).toBe('application/json');
  expect(headers.get('connection')).toBe('close');
  const requestId = headers.get('request-id');
  expect(requestId).toMatch(/^req_\w+$/);
  if (expected.cors) {
    expect(headers.get('access-control-allow-origin')).toBe('*');
    expect(headers.get('access-control-expose-headers')).toBe(
      'Request-Id, RateLimit-Policy, Retry-After, Idempotent-Replayed, Sandbox-Fault',
    );
  } else {
    expect(headers.has('access-control-allow-origin')).toBe(false);
    expect(headers.has('access-control-expose-headers')).toBe(false);
  }
  const error = {
    type: 'invalid_request_error',
    code: 'parameter_invalid',
    message: expected.message,
    ...(expected.param === undefined ? {} : { param: expected.param }),
    doc_url: '/docs/errors#parameter_invalid',
    request_id: requestId,
  };
  const length = Buffer.byteLength(JSON.stringify({ error }));
  expect(headers.get('content-length')).toBe(String(length));
  if (expected.body === false) {
    expect(body.length, 'bytes after the headers of the answer to a HEAD').toBe(0);
  } else {
    expect(JSON.parse(body.toString('utf8'))).toEqual({ error });
    expect(body.length).toBe(length);
  }
  expect(answer.closedByServer).toBe(true);
}

/** Sends `bytes`, then closes the sending side (FIN), and reads the answer until the server closes. */
export function halfClosed(port: number, bytes: string | Buffer): Promise<RawAnswer> {
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let error: string | undefined;
    let gaveUp = false;
    const timer = setTimeout(() => {
      gaveUp = true;
      socket.destroy();
    }, 3000);
    socket.on('data', (chunk) => received.push(chunk));
    socket.on('error', (cause: NodeJS.ErrnoException) => {
      error ??= cause.code ?? cause.message;
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const raw = Buffer.concat(received);
      const text = raw.toString('latin1');
      const blank = text.indexOf('\r\n\r\n');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
      resolve({
        status: status === undefined ? null : Number(status),
        headers: text.slice(0, blank),
        body: text.slice(blank + 4),
        closedByServer: !gaveUp,
        elapsedMs: Date.now() - started,
        error,
        raw,
      });
    });
    socket.end(bytes);
  });
}
