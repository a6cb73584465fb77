// Abuse cases about the socket, through a real loopback server started as the CLI starts it
// (src/node-server.ts) with sub-second timeouts: oversized request lines and headers, headers or
// bodies that trickle in, framing tricks, bytes HTTP forbids. Each gets a clear 4xx in the
// reference's error shape, and the process keeps serving other clients.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/errors.js';
import { header, parseWire, TRANSPORT_HEADERS, wireProblems } from '../fuzz/wire.js';
import { FAST_LIMITS, type Loopback, normalRequestSucceeds, type RawAnswer, rawRequest, startLoopback } from './loopback.js';

let server: Loopback;
const HEADERS = 'Host: 127.0.0.1\r\nAuthorization: Bearer svc_test_sandbox_public\r\n';

beforeAll(async () => {
  server = await startLoopback();
});

afterAll(async () => {
  await server.close();
});

/** The status, then an error body of the reference's shape whose request_id is the header's. */
function expectErrorAnswer(answer: RawAnswer, status: number): void {
  expect(answer.status, `${answer.headers}\n\n${answer.body}`).toBe(status);
  const requestId = /\r\nRequest-Id: (req_\w+)/i.exec(answer.headers)?.[1];
  const body = JSON.parse(answer.body);
  expect(body).toEqual({
    error: {
      type: 'invalid_request_error',
      code: 'parameter_invalid',
      message: expect.any(String),
      // A refused header is named (issue #18).
      ...(body.error.param === undefined ? {} : { param: expect.stringMatching(/^[A-Za-z-]+$/) }),
      doc_url: '/docs/errors#parameter_invalid',
      request_id: requestId,
    },
  });
  expect(ERROR_CODES[body.error.code as keyof typeof ERROR_CODES]).toBeDefined();
  expect(answer.closedByServer).toBe(true);
}

describe('socket abuse on @hono/node-server', () => {
  it('a 100 KB URL is a 431 with an error body, not a hang', async () => {
    const answer = await rawRequest(server.port, [`GET /v1/jobs?q=${'a'.repeat(100_000)} HTTP/1.1\r\n${HEADERS}\r\n`]);
    expectErrorAnswer(answer, 431);
    expect(await normalRequestSucceeds(server.port)).toBe(true);
  });

  it('100 KB of headers is a 431', async () => {
    const answer = await rawRequest(server.port, [`GET /v1/jobs HTTP/1.1\r\n${HEADERS}X-Big: ${'a'.repeat(100_000)}\r\n\r\n`]);
    expectErrorAnswer(answer, 431);
    expect(await normalRequestSucceeds(server.port)).toBe(true);
  });

  it('headers that trickle in are cut off with a 408 (headers timeout, swept often)', async () => {
    const trickle = Array.from({ length: 60 }, (_, index) => `X-Slow-${index}: y\r\n`);
    const answering = rawRequest(server.port, ['GET /v1/jobs HTTP/1.1\r\n', ...trickle], { gapMs: 50, timeoutMs: 5000 });
    // Other clients are served while the slow one is held.
    expect(await normalRequestSucceeds(server.port)).toBe(true);
    const answer = await answering;
    expectErrorAnswer(answer, 408);
  });

  it('a body sent slowly is cut off with a 408 (request timeout)', async () => {
    const head = `POST /v1/clients HTTP/1.1\r\n${HEADERS}Content-Type: application/json\r\nContent-Length: 60\r\n\r\n`;
    const answer = await rawRequest(server.port, [head, ...Array.from({ length: 60 }, () => ' ')], { gapMs: 50, timeoutMs: 5000 });
    expectErrorAnswer(answer, 408);
    expect(await normalRequestSucceeds(server.port)).toBe(true);
  });

  it('a chunked body over 1 MiB without Content-Length is a 413', async () => {
    const chunk = 'x'.repeat(64 * 1024);
    const framed = `${chunk.length.toString(16)}\r\n${chunk}\r\n`;
    const head = `POST /v1/clients HTTP/1.1\r\n${HEADERS}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const answer = await rawRequest(server.port, [head, `5\r\n{"a":\r\n`, ...Array.from({ length: 40 }, () => framed)], {
      timeoutMs: 5000,
    });
    expect(answer.status, answer.body).toBe(413);
    expect(JSON.parse(answer.body).error).toMatchObject({ code: 'parameter_invalid', type: 'invalid_request_error' });
    expect(await normalRequestSucceeds(server.port)).toBe(true);
  });

  it('Content-Length and Transfer-Encoding together are a 400 (request smuggling)', async () => {
    const answer = await rawRequest(server.port, [
      `POST /v1/clients HTTP/1.1\r\n${HEADERS}Content-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
    ]);
    expectErrorAnswer(answer, 400);
    expect(await normalRequestSucceeds(server.port)).toBe(true);
  });

  it.each([
    ['a CR in the path', `GET /v1/jobs/job_a\rb HTTP/1.1\r\n${HEADERS}\r\n`],
    [
      'a bare LF inside an Idempotency-Key',
      `POST /v1/clients HTTP/1.1\r\n${HEADERS}Idempotency-Key: a\nInjected: 1\r\nContent-Length: 0\r\n\r\n`,
    ],
    [
      'a control character in an Idempotency-Key',
      `POST /v1/clients HTTP/1.1\r\n${HEADERS}Idempotency-Key: a\u0001b\r\nContent-Length: 0\r\n\r\n`,
    ],
    [
      'a control character in the API key',
      `GET /v1/jobs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer svc_test_\u0000sandbox_public\r\n\r\n`,
    ],
  ])('%s is a 400 from the HTTP parser', async (_name, request) => {
    expectErrorAnswer(await rawRequest(server.port, [request]), 400);
    expect(await normalRequestSucceeds(server.port)).toBe(true);
  });

  it('raw invalid UTF-8 bytes in the URL are a 400', async () => {
    const request = Buffer.concat([
      Buffer.from('GET /v1/jobs/job_'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(` HTTP/1.1\r\n${HEADERS}\r\n`),
    ]);
    expectErrorAnswer(await rawRequest(server.port, [request]), 400);
  });

  it('invalid UTF-8 in a body on the socket is a 400 with the error shape', async () => {
    const body = Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]);
    const head = `POST /v1/clients HTTP/1.1\r\n${HEADERS}Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
    const answer = await rawRequest(server.port, [Buffer.concat([Buffer.from(head), body])]);
    expect(answer.status, answer.body).toBe(400);
    expect(JSON.parse(answer.body).error).toMatchObject({ code: 'parameter_invalid', message: expect.stringMatching(/UTF-8/) });
  });
});

describe('the protocol edge (issue #18)', () => {
  let limited: Loopback;

  beforeAll(async () => {
    // A configured rate limit, so RateLimit-Policy shows it is the configured one, not a default.
    limited = await startLoopback(FAST_LIMITS, '7');
  });

  afterAll(async () => {
    await limited.close();
  });

  const utf8 = (text: string) => Buffer.from(text, 'utf8');

  it("a raw é in the request line is refused with the app's headers and a message saying to percent-encode it", async () => {
    const answer = await rawRequest(limited.port, [utf8(`GET /v1/clients?q=é HTTP/1.1\r\n${HEADERS}\r\n`)]);
    const [parsed] = parseWire(answer.raw, ['GET'], true).answers;
    expect(parsed?.status).toBe(400);
    if (parsed === undefined) return;
    expect(wireProblems('GET', parsed, false)).toEqual([]);
    expect(header(parsed, 'RateLimit-Policy')).toBe('7;w=1');
    // No Origin, so no CORS, as the app answers.
    expect(header(parsed, 'Access-Control-Allow-Origin')).toBeUndefined();
    const body = JSON.parse(parsed.body.toString('utf8'));
    expect(body.error.message).toContain('percent-encode it (é → %C3%A9)');
    expect(body.error.request_id).toBe(header(parsed, 'Request-Id'));
  });

  it('a HEAD refused by the parser gets the headers and no body, with CORS when it carried Origin', async () => {
    const answer = await rawRequest(limited.port, [utf8(`HEAD /v1/clients?q=é HTTP/1.1\r\n${HEADERS}Origin: https://example.com\r\n\r\n`)]);
    const parsed = parseWire(answer.raw, ['HEAD'], true);
    expect(parsed.answers[0]?.status).toBe(400);
    expect(parsed.rest.length, 'bytes after the answer to a HEAD').toBe(0);
    if (parsed.answers[0] === undefined) return;
    expect(wireProblems('HEAD', parsed.answers[0], false)).toEqual([]);
    expect(header(parsed.answers[0], 'Access-Control-Allow-Origin')).toBe('*');
    expect(header(parsed.answers[0], 'RateLimit-Policy')).toBe('7;w=1');
  });

  it.each([
    ['a control byte in the path', `HEAD /v1/jobs/a\u0001b HTTP/1.1\r\n${HEADERS}\r\n`, 400],
    ['a bad header name', `HEAD /v1/jobs HTTP/1.1\r\n${HEADERS}X Bad: 1\r\n\r\n`, 400],
    ['a control byte in a header value', `HEAD /v1/jobs HTTP/1.1\r\n${HEADERS}Idempotency-Key: a\u0001b\r\n\r\n`, 400],
    ['a 20 KB URL', `HEAD /v1/jobs?q=${'a'.repeat(20_000)} HTTP/1.1\r\n${HEADERS}\r\n`, 431],
    [
      'Content-Length with Transfer-Encoding',
      `HEAD /v1/jobs HTTP/1.1\r\n${HEADERS}Content-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n`,
      400,
    ],
  ])('HEAD with %s: no body, the common headers', async (_name, request, status) => {
    const answer = await rawRequest(limited.port, [request]);
    const parsed = parseWire(answer.raw, ['HEAD'], true);
    expect(parsed.answers[0]?.status).toBe(status);
    expect(parsed.rest.length).toBe(0);
    if (parsed.answers[0] !== undefined) expect(wireProblems('HEAD', parsed.answers[0], false)).toEqual([]);
  });

  it('a bad header is named, and is the param', async () => {
    const answer = await rawRequest(limited.port, [
      `POST /v1/clients HTTP/1.1\r\n${HEADERS}Idempotency-Key: a\u0001b\r\nContent-Length: 0\r\n\r\n`,
    ]);
    const body = JSON.parse(answer.body);
    expect(body.error.param).toBe('Idempotency-Key');
    expect(body.error.message).toMatch(/Idempotency-Key holds the control byte \(0x01\)/);
  });

  it.each([
    ['Content-Length', (size: number) => `Content-Length: ${size}`, (chunk: Buffer) => chunk],
    [
      'chunks',
      () => 'Transfer-Encoding: chunked',
      (chunk: Buffer) => Buffer.concat([utf8(`${chunk.length.toString(16)}\r\n`), chunk, utf8('\r\n')]),
    ],
  ])(
    'a client that sends a 26 MiB body (%s, Connection: close) before reading reads its 413',
    async (_name, framing, frame) => {
      const size = 27_765_526;
      const chunk = Buffer.alloc(256 * 1024, 0x61);
      const chunks: Buffer[] = [
        utf8(`POST /v1/clients HTTP/1.1\r\n${HEADERS}Content-Type: application/json\r\n${framing(size)}\r\nConnection: close\r\n\r\n`),
      ];
      for (let sent = 0; sent < size; sent += chunk.length) chunks.push(frame(chunk.subarray(0, Math.min(chunk.length, size - sent))));
      if (framing(0).startsWith('Transfer')) chunks.push(utf8('0\r\n\r\n'));
      const answer = await rawRequest(limited.port, chunks, { readAfterSending: true, timeoutMs: 15_000 });
      expect(answer.error, 'the client was cut off while sending').toBeUndefined();
      const parsed = parseWire(answer.raw, ['POST'], true);
      expect(parsed.answers[0]?.status, answer.headers).toBe(413);
      expect(header(parsed.answers[0] as never, 'Connection')).toBe('close');
      expect(JSON.parse(parsed.answers[0]?.body.toString() ?? '{}').error.code).toBe('parameter_invalid');
      expect(answer.closedByServer).toBe(true);
      expect(await normalRequestSucceeds(limited.port)).toBe(true);
    },
    30_000,
  );

  it("HEAD answers carry the GET answer's header names, in their case and order", async () => {
    // On the server without a rate limit: 18 requests in a row must not meet a 429.
    for (const path of ['/v1/jobs?limit=1', '/v1/nope', '/health']) {
      for (const auth of [HEADERS, 'Host: 127.0.0.1\r\n', `${HEADERS}Origin: https://example.com\r\n`]) {
        const get = parseWire(
          (await rawRequest(server.port, [`GET ${path} HTTP/1.1\r\n${auth}Connection: close\r\n\r\n`])).raw,
          ['GET'],
          true,
        );
        const head = parseWire(
          (await rawRequest(server.port, [`HEAD ${path} HTTP/1.1\r\n${auth}Connection: close\r\n\r\n`])).raw,
          ['HEAD'],
          true,
        );
        const names = (answer: typeof get) =>
          answer.answers[0]?.headers.map(([name]) => name).filter((name) => !TRANSPORT_HEADERS.has(name.toLowerCase()));
        expect(names(head), `${path}`).toEqual(names(get));
        expect(names(get)).toContain('Request-Id');
        expect(head.answers[0]?.status).toBe(get.answers[0]?.status);
        expect(header(head.answers[0] as never, 'Content-Length')).toBe(header(get.answers[0] as never, 'Content-Length'));
        expect(head.answers[0]?.body.length).toBe(0);
        expect(head.rest.length).toBe(0);
      }
    }
  });
});
