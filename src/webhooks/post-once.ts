// One POST to a receiver, as check-receiver needs it: exactly one request to exactly the URL given
// (no redirect followed, no proxy, no retry, a new connection each time so one check's closed
// socket cannot spoil the next), bounded in time from connect to the answer's headers. node:http
// rather than fetch: fetch refuses some ports outright ("bad port": 6000, 6667, …) and reports a
// closed connection and a refused one alike as "fetch failed".
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

export type PostAnswer = { status: number; location?: string; excerpt: string } | { status: null; error: string; unreachable: boolean };

/** How much of an answer's body is kept, to quote in a FAIL line. */
const EXCERPT_BYTES = 200;

/** Node's codes for an address nothing answers at: the receiver is not there at all. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

function failure(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'connection closed without an answer';
    default:
      return error.code === undefined ? error.message : `${error.code}: ${error.message}`;
  }
}

function excerptOf(chunks: Buffer[]): string {
  return Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8').replace(/\s+/g, ' ').trim();
}

export function postOnce(url: URL, body: string, headers: Record<string, string>, timeoutMs: number): Promise<PostAnswer> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let response: IncomingMessage | undefined;
    const chunks: Buffer[] = [];
    let kept = 0;
    let settled = false;
    const settle = (answer: PostAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outgoing.destroy();
      resolve(answer);
    };
    const answered = (message: IncomingMessage) => {
      const location = message.headers.location;
      settle({ status: message.statusCode ?? 0, excerpt: excerptOf(chunks), ...(location === undefined ? {} : { location }) });
    };
    const outgoing = request(url, {
      method: 'POST',
      agent: false,
      headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
    });
    const timer = setTimeout(() => {
      // Headers came but the body did not end: the status is the answer all the same.
      if (response !== undefined) answered(response);
      else settle({ status: null, error: `no answer within ${timeoutMs / 1000} s`, unreachable: false });
    }, timeoutMs);
    outgoing.on('response', (message) => {
      response = message;
      message.on('data', (chunk: Buffer) => {
        if (kept < EXCERPT_BYTES) chunks.push(chunk);
        kept += chunk.length;
      });
      message.on('end', () => answered(message));
      message.on('error', () => answered(message));
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (response !== undefined) answered(response);
      else settle({ status: null, error: failure(error), unreachable: UNREACHABLE.has(error.code ?? '') });
    });
    outgoing.end(body);
  });
}
