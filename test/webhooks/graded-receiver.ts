// Receivers for the tests of check-receiver (test/check-receiver.test.ts through the command,
// test/webhooks/check-receiver.test.ts in-process): one that keeps every rule of the reference's
// "Signature" and "Delivery", the same with one rule broken, and answers no receiver should give
// (a redirect, a dropped connection, none at all, a body that stalls). The rules are written here
// from the reference, with node:crypto: nothing of the sandbox's own code. Every receiver records
// the requests it got, to check what was sent.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const SECRET = 'whsec_gradedReceiverSecret01';

export interface Rules {
  /** Refuses a delivery without Service-Signature (else takes it as verified). */
  requireHeader: boolean;
  /** Checks the HMAC at all. */
  checkHmac: boolean;
  /** How many hex digits of v1 it compares (64: all; fewer is the bug of comparing a prefix). */
  comparedDigits: number;
  /** The key: the whole secret (true), or the secret without its whsec_ prefix. */
  keyWithPrefix: boolean;
  /** Refuses a t 300 s old or more. */
  checkPast: boolean;
  /** Refuses a t in the future. */
  checkFuture: boolean;
  /** What it answers to an event ID it has seen: 200 (dedupe) or 409 (refuses the duplicate). */
  duplicateStatus: number;
  /** The secret it verifies with. */
  secret: string;
  /** Its clock, unix seconds: the real one unless a test pins it. */
  now: () => number;
}

export const CORRECT: Rules = {
  requireHeader: true,
  checkHmac: true,
  comparedDigits: 64,
  keyWithPrefix: true,
  checkPast: true,
  checkFuture: true,
  duplicateStatus: 200,
  secret: SECRET,
  now: () => Math.floor(Date.now() / 1000),
};

export interface ReceivedRequest {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface TestReceiver {
  url: string;
  /** Requests it received, in order. */
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

/** Reference, "Signature": the lowercase hex HMAC-SHA256 of "<t>.<raw body>", keyed by the whsec_ secret. */
export function hmacHex(t: number | string, body: string | Buffer, secret: string): string {
  return createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
}

function refusal(rules: Rules, body: Buffer, header: string | undefined): string | null {
  if (header === undefined) return rules.requireHeader ? 'no signature' : null;
  const t = /(?:^|,)t=(\d+)(?:,|$)/.exec(header)?.[1];
  const v1 = /(?:^|,)v1=([0-9a-f]{64})(?:,|$)/.exec(header)?.[1];
  if (t === undefined || v1 === undefined) return 'malformed signature';
  const now = rules.now();
  if (rules.checkFuture && Number(t) > now) return 'from the future';
  if (rules.checkPast && now - Number(t) >= 300) return 'too old';
  if (!rules.checkHmac) return null;
  const expected = hmacHex(t, body, rules.keyWithPrefix ? rules.secret : rules.secret.slice('whsec_'.length));
  const digits = rules.comparedDigits;
  return timingSafeEqual(Buffer.from(expected.slice(0, digits)), Buffer.from(v1.slice(0, digits))) ? null : 'bad signature';
}

/** A loopback server that records each request whole, then lets `handler` answer it. */
async function listen(handler: (body: Buffer, request: IncomingMessage, response: ServerResponse) => void): Promise<TestReceiver> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      requests.push({ method: request.method, url: request.url, headers: request.headers, body: body.toString('utf8') });
      handler(body, request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A receiver that keeps the rules given (CORRECT with some changed). */
export function gradedReceiver(changes: Partial<Rules> = {}): Promise<TestReceiver> {
  const rules = { ...CORRECT, ...changes };
  const seen = new Set<string>();
  return listen((body, request, response) => {
    const why = refusal(rules, body, request.headers['service-signature'] as string | undefined);
    if (why !== null) {
      response.writeHead(400).end(why);
      return;
    }
    const id = (JSON.parse(body.toString('utf8')) as { id: string }).id;
    const status = seen.has(id) ? rules.duplicateStatus : 200;
    seen.add(id);
    response.writeHead(status).end(status === 200 ? 'ok' : 'already processed');
  });
}

/** A receiver that answers every request with this status, headers and body. */
export function answeringReceiver(status: number, headers: Record<string, string> = {}, body = ''): Promise<TestReceiver> {
  return listen((_body, _request, response) => response.writeHead(status, headers).end(body));
}

/** A receiver that sends its answer's body in two parts, a moment apart. */
export function twoPartReceiver(status: number, first: string, second: string): Promise<TestReceiver> {
  return listen((_body, _request, response) => {
    response.writeHead(status);
    response.write(first);
    setTimeout(() => response.end(second), 100);
  });
}

/** A receiver that reads the request, then closes the connection without a byte of answer. */
export function closingReceiver(): Promise<TestReceiver> {
  return listen((_body, request) => request.socket.destroy());
}

/** A receiver that reads the request and never answers (until it is closed). */
export function silentReceiver(): Promise<TestReceiver> {
  return listen(() => {});
}

/** A receiver that sends its status and a first part of the body, then nothing more. */
export function stallingReceiver(status: number): Promise<TestReceiver> {
  return listen((_body, _request, response) => {
    response.writeHead(status);
    response.write('partial');
  });
}

/** A receiver that sends its status and a first part of the body, then drops the connection. */
export function breakingReceiver(status: number): Promise<TestReceiver> {
  return listen((_body, request, response) => {
    response.writeHead(status);
    response.write('partial');
    setTimeout(() => request.socket.destroy(), 50);
  });
}

/** A correct receiver that goes away after answering its first delivery: nothing listens afterwards. */
export async function vanishingReceiver(): Promise<TestReceiver> {
  let receiver: TestReceiver | undefined;
  const running = await listen((_body, _request, response) => {
    response.writeHead(200).end('ok', () => void receiver?.close());
  });
  receiver = running;
  return running;
}
