// Receivers for the tests of check-receiver (test/check-receiver.test.ts): one that keeps every rule
// of the reference's "Signature" and "Delivery", and the same with one rule broken, or with an
// answer no receiver should give (a redirect, a dropped connection, none at all). The rules are
// written here from the reference, with node:crypto: nothing of the sandbox's own code.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
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
}

export const CORRECT: Rules = {
  requireHeader: true,
  checkHmac: true,
  comparedDigits: 64,
  keyWithPrefix: true,
  checkPast: true,
  checkFuture: true,
  duplicateStatus: 200,
};

export interface TestReceiver {
  url: string;
  /** Requests it received. */
  received: number;
  close(): Promise<void>;
}

/** Reference, "Signature": the lowercase hex HMAC-SHA256 of "<t>.<raw body>", keyed by the whsec_ secret. */
function refusal(rules: Rules, body: Buffer, header: string | undefined, now: number): string | null {
  if (header === undefined) return rules.requireHeader ? 'no signature' : null;
  const t = /(?:^|,)t=(\d+)(?:,|$)/.exec(header)?.[1];
  const v1 = /(?:^|,)v1=([0-9a-f]{64})(?:,|$)/.exec(header)?.[1];
  if (t === undefined || v1 === undefined) return 'malformed signature';
  if (rules.checkFuture && Number(t) > now) return 'from the future';
  if (rules.checkPast && now - Number(t) >= 300) return 'too old';
  if (!rules.checkHmac) return null;
  const key = rules.keyWithPrefix ? SECRET : SECRET.slice('whsec_'.length);
  const expected = createHmac('sha256', key).update(`${t}.`).update(body).digest('hex');
  const digits = rules.comparedDigits;
  return timingSafeEqual(Buffer.from(expected.slice(0, digits)), Buffer.from(v1.slice(0, digits))) ? null : 'bad signature';
}

async function listen(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<TestReceiver> {
  const server = createServer((request, response) => {
    receiver.received++;
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const receiver: TestReceiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    received: 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}

/** A receiver that keeps the rules given (CORRECT with some changed). */
export function gradedReceiver(changes: Partial<Rules> = {}): Promise<TestReceiver> {
  const rules = { ...CORRECT, ...changes };
  const seen = new Set<string>();
  return listen((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const why = refusal(rules, body, request.headers['service-signature'] as string | undefined, Math.floor(Date.now() / 1000));
      if (why !== null) {
        response.writeHead(400).end(why);
        return;
      }
      const id = (JSON.parse(body.toString('utf8')) as { id: string }).id;
      const status = seen.has(id) ? rules.duplicateStatus : 200;
      seen.add(id);
      response.writeHead(status).end(status === 200 ? 'ok' : 'already processed');
    });
  });
}

/** A receiver that answers every request with this status (and a Location for a 3xx). */
export function answeringReceiver(status: number, location?: string): Promise<TestReceiver> {
  return listen((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(status, location === undefined ? {} : { Location: location }).end());
  });
}

/** A receiver that reads the request, then closes the connection without a byte of answer. */
export function closingReceiver(): Promise<TestReceiver> {
  return listen((request) => {
    request.resume();
    request.on('end', () => request.socket.destroy());
  });
}

/** A receiver that reads the request and never answers (until it is closed). */
export function silentReceiver(): Promise<TestReceiver> {
  return listen((request) => request.resume());
}
