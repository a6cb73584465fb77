// One POST to a receiver, as check-receiver needs it: exactly one request to exactly the URL given
// (no redirect followed, no proxy, no retry, a new connection each time so one check's closed
// socket cannot spoil the next), bounded in time from connect to the answer. node:http rather than
// fetch: fetch refuses some ports outright ("bad port": 6000, 6667, …) and reports a closed
// connection and a refused one alike as "fetch failed".
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** What came back: an answer (its status, where a 3xx pointed, the start of its body), or why none came. */
export type PostAnswer =
  | { status: number; location: string | undefined; excerpt: string; error?: undefined; unreachable?: undefined }
  | {
      status: null;
      /** Why no answer came (refused, closed, timed out). */
      error: string;
      /** True when nothing answers at the address at all. */
      unreachable: boolean;
      location?: undefined;
      excerpt?: undefined;
    };

/** How much of an answer's body is quoted in a FAIL line. */
const EXCERPT_BYTES = 200;

/** The failures a receiver's author recognizes by name; any other is told in Node's words. */
const FAILURES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  ECONNRESET: 'connection closed without an answer',
  EPIPE: 'connection closed without an answer',
};

/** Node's codes for an address where nothing answers at all: the receiver is not there. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

/**
 * Why a request got no answer, from the socket's error: the words a receiver's author knows, and
 * whether nothing is there at all. Apart from postOnce because the codes that only a network can
 * give (no route, a name no server resolves) cannot be made on a loopback socket in a test.
 */
export function noAnswer(error: { code?: string; message: string }): { error: string; unreachable: boolean } {
  const code = String(error.code);
  return { error: FAILURES[code] ?? error.message, unreachable: UNREACHABLE.has(code) };
}

/** The start of the body (its first chunk), on one line. */
function excerptOf(first: Buffer | undefined): string {
  return String(first?.subarray(0, EXCERPT_BYTES) ?? '')
    .replace(/\s+/g, ' ')
    .trim();
}

export function postOnce(url: URL, body: string, headers: Record<string, string>, timeoutMs: number): Promise<PostAnswer> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let message: IncomingMessage | undefined;
    let first: Buffer | undefined;
    // Once the headers came, the status is the answer, whatever then happens to the body (it
    // ends, it breaks off, or it stalls past the time-out).
    const answered = (response: IncomingMessage) =>
      resolve({ status: response.statusCode as number, location: response.headers.location, excerpt: excerptOf(first) });
    const outgoing = request(url, {
      method: 'POST',
      agent: false,
      signal: AbortSignal.timeout(timeoutMs),
      headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (message !== undefined) answered(message);
      else {
        resolve(
          error.name === 'AbortError'
            ? { status: null, error: `no answer within ${timeoutMs / 1000} s`, unreachable: false }
            : { status: null, ...noAnswer(error) },
        );
      }
    });
    outgoing.on('response', (response) => {
      message = response;
      response.on('data', (chunk: Buffer) => {
        first ??= chunk;
      });
      response.on('end', () => answered(response));
      response.on('error', () => answered(response));
    });
    outgoing.end(body);
  });
}
