// Abuse cases about the socket, through a real loopback server started as the CLI starts it
// (src/node-server.ts) with sub-second timeouts: oversized request lines and headers, headers or
// bodies that trickle in, framing tricks, bytes HTTP forbids. Each gets a clear 4xx in the
// reference's error shape, and the process keeps serving other clients.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/errors.js';
import { type Loopback, normalRequestSucceeds, type RawAnswer, rawRequest, startLoopback } from './loopback.js';

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
