// The Node HTTP server around the app: @hono/node-server with the limits a public sandbox needs.
// One function, so the CLI (src/server.ts), the abuse tests and the soak all start the very same
// server. Besides the limits, it owns what happens at the protocol's edge (issue #18): answers to
// requests Node refuses before the app runs, HEAD answers with the GET answer's headers, a
// lingering close so that a client still sending a body it was refused can read why, and the
// reset of reset_after_write (src/faults/lost-answer.ts).
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { serve } from '@hono/node-server';
import type { Context } from 'hono';
import { rateLimitPolicy } from './config.js';
import { ApiError, errorBody } from './errors.js';
import { forwardedAddress } from './http-edge/forwarded-for.js';
import { refusalOf } from './http-edge/refusal.js';
import { CORS_HEADERS } from './http/reply.js';
import { newRequestId } from './clock/mint.js';
import { isLostAnswer } from './faults/lost-answer.js';

export interface NodeServerOptions {
  port: number;
  hostname: string;
  /** Headers must arrive within this time (Node's default is 60 s; no sandbox request needs more). */
  headersTimeoutMs?: number;
  /** A whole request, body included, must arrive within this time (Node's default: 300 s). */
  requestTimeoutMs?: number;
  /**
   * How often Node sweeps for connections past those timeouts. Node's default is 30 s, so a
   * client trickling its headers would live up to 30 s past the timeout.
   */
  connectionsCheckingIntervalMs?: number;
  /** Most bytes of the request line and headers together (Node's default, 16 KiB). */
  maxHeaderBytes?: number;
  /**
   * The RateLimit-Policy the app answers with (see rateLimitPolicy), also on the answers Node's
   * parser refusals get, which the app never sees: every response carries it (reference, "Limits").
   */
  rateLimitPolicy?: string;
}

export const NODE_SERVER_DEFAULTS = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  connectionsCheckingIntervalMs: 1_000,
  maxHeaderBytes: 16 * 1024,
} as const;

/**
 * After answering a request whose body is still arriving, read and discard the rest for at most
 * this long, this many bytes, or this long without a byte, then close (nginx's lingering close).
 * Closing at once would reset the connection while the client still sends, and a client that
 * sends its whole body before it reads (most do) would never see its 413. 64 MiB matches
 * @hono/node-server's own drain; loopback moves it in well under a second.
 */
export const LINGER = { maxMs: 10_000, idleMs: 2_000, maxBytes: 64 * 1024 * 1024 } as const;

interface NodeEnv {
  incoming: IncomingMessage;
  outgoing: ServerResponse;
}

type FetchHandler = (request: Request, env: NodeEnv) => Response | Promise<Response>;

/** The client's address as the socket gives it: the peer, for rate-limit buckets and shared keys' Idempotency-Keys. */
export function socketAddress(c: Context): string {
  return (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket.remoteAddress ?? 'unknown';
}

/**
 * The client's address of a server behind `trustProxy` proxies of the operator's
 * (SANDBOX_TRUST_PROXY, src/http-edge/forwarded-for.ts); with none, the socket's peer, and
 * X-Forwarded-For is never read (a client could name any address in it).
 */
export function clientAddressOf(trustProxy: number): (c: Context) => string {
  if (trustProxy === 0) return socketAddress;
  return (c) => {
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    // Node joins repeated X-Forwarded-For lines with ", ", in order: one list, as proxies mean it
    // (its type allows an array, which Node gives only for set-cookie).
    const header = incoming?.headers['x-forwarded-for'];
    return forwardedAddress(Array.isArray(header) ? header.join(', ') : header, trustProxy, incoming?.socket.remoteAddress ?? 'unknown');
  };
}

/**
 * Calls `written` with the status and headers as they go on the wire. For a request log: reading
 * `response.headers` instead would turn @hono/node-server's plain header object into a Headers,
 * which it then writes lower-cased and sorted (issue #18). False without a Node response (in-process).
 */
export function whenHeadWritten(env: unknown, written: (status: number, header: (name: string) => string | undefined) => void): boolean {
  const outgoing = (env as Partial<NodeEnv> | undefined)?.outgoing;
  if (outgoing === undefined) return false;
  const writeHead = outgoing.writeHead;
  outgoing.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    outgoing.writeHead = writeHead;
    const headers = args.find((arg, index) => index > 0 && typeof arg === 'object' && arg !== null) as
      | Record<string, unknown>
      | unknown[]
      | undefined;
    written(Number(args[0]), (name) => headerValue(headers, name));
    return (writeHead as (...all: unknown[]) => ServerResponse).apply(this, args);
  } as typeof writeHead;
  return true;
}

function headerValue(headers: Record<string, unknown> | unknown[] | undefined, name: string): string | undefined {
  const wanted = name.toLowerCase();
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) if (String(headers[i]).toLowerCase() === wanted) return String(headers[i + 1]);
    return undefined;
  }
  for (const key in headers) if (key.toLowerCase() === wanted) return String(headers[key]);
  return undefined;
}

/** Starts listening; `onListening` gets the bound address (port 0 picks a free port). */
export function startNodeServer(fetch: FetchHandler, options: NodeServerOptions, onListening?: (info: AddressInfo) => void): Server {
  const limits = { ...NODE_SERVER_DEFAULTS, ...definedOnly(options) };
  const server = serve(
    {
      fetch: atTheEdge(fetch) as never,
      port: options.port,
      hostname: options.hostname,
      serverOptions: {
        headersTimeout: limits.headersTimeoutMs,
        requestTimeout: limits.requestTimeoutMs,
        connectionsCheckingInterval: limits.connectionsCheckingIntervalMs,
        maxHeaderSize: limits.maxHeaderBytes,
      },
    },
    onListening,
  ) as Server;
  server.on('clientError', clientErrorAnswerer(limits, options.rateLimitPolicy ?? rateLimitPolicy(null)));
  return server;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as Partial<T>;
}

/**
 * The app behind two fixes of the edge:
 * - HEAD is handed to the app as the GET it stands for. Hono answers a HEAD by rewrapping the GET
 *   answer (`new Response(null, response)`), which turns the plain header object of
 *   @hono/node-server's fast path into a Headers: the names went out lower-cased and sorted
 *   (`request-id`). As a GET, the answer takes the fast path, its header names and order are the
 *   GET's exactly, Content-Length included, and Node drops the body itself (it knows the request
 *   was a HEAD). The only other difference: with a pinned clock, the derived Request-Id of a HEAD
 *   is that of the same GET.
 * - An answer given while the request's body is still arriving (a 413 on Content-Length, a 401 on
 *   a large upload) is written at once, then the rest of the body is drained (see LINGER).
 */
function atTheEdge(fetch: FetchHandler): FetchHandler {
  return async (request, env) => {
    const asked = request.method === 'HEAD' ? new Request(request.url, { headers: request.headers, signal: request.signal }) : request;
    const response = await fetch(asked, env);
    if (isLostAnswer(response)) return resetConnection(env);
    if (!env.incoming.complete) answerThenDrain(env.incoming, env.outgoing);
    return response;
  };
}

/**
 * reset_after_write on Node: the socket is reset (an RST, not a FIN) before any byte of the answer,
 * so the client sees ECONNRESET, "socket hang up", as when a proxy or a crash drops a connection.
 * The response handed back goes nowhere, its status included: Node writes nothing to a destroyed
 * socket (and the request log, inside, has the app's own answer).
 */
function resetConnection(env: NodeEnv): Response {
  env.incoming.socket.resetAndDestroy();
  return new Response(null);
}

/** Sockets draining a refused body: a request time-out there is the drain's business, not a 408. */
const draining = new WeakSet<object>();

/**
 * Lets the answer be written now but finishes it only once the request's body is read to its end
 * (or a bound of LINGER is met): Node closes a `Connection: close` socket as soon as the answer
 * finishes, and closing with unread bytes sends a reset that can destroy the answer in the
 * client's buffers. The answer says `Connection: close`: the connection is not reused after a
 * body the app did not read.
 */
function answerThenDrain(incoming: IncomingMessage, outgoing: ServerResponse): void {
  const socket = incoming.socket;
  draining.add(socket);
  outgoing.shouldKeepAlive = false;
  const end = outgoing.end;
  outgoing.end = function (this: ServerResponse, ...args: unknown[]) {
    outgoing.end = end;
    const callback = typeof args.at(-1) === 'function' ? (args.pop() as () => void) : undefined;
    if (args[0] !== undefined && args[0] !== null) outgoing.write(args[0] as string | Uint8Array);
    discardRest(incoming, (whole) => {
      (end as (callback?: () => void) => ServerResponse).call(outgoing, callback);
      // Past a bound the client is still sending: stop here (it had its answer for that long).
      if (!whole) setTimeout(() => socket.destroy(), 1_000).unref();
    });
    return this;
  } as typeof end;
}

function discardRest(incoming: IncomingMessage, done: (whole: boolean) => void): void {
  let bytes = 0;
  let finished = false;
  const finish = (whole: boolean) => {
    if (finished) return;
    finished = true;
    clearTimeout(total);
    clearTimeout(idle);
    incoming.off('data', onData);
    done(whole);
  };
  const onData = (chunk: Buffer) => {
    bytes += chunk.byteLength;
    if (bytes > LINGER.maxBytes) finish(false);
    else idle.refresh();
  };
  const total = setTimeout(() => finish(false), LINGER.maxMs);
  const idle = setTimeout(() => finish(false), LINGER.idleMs);
  // As Node's own IncomingMessage._dump: whoever read the body before (the app's body stream)
  // gave up on it, so its listener goes, and nothing is buffered.
  incoming.removeAllListeners('data');
  incoming.on('data', onData);
  // A request closes once its body was read to the end (it is destroyed then), or when the client
  // goes: whole only in the first case.
  incoming.once('close', () => finish(incoming.complete));
  incoming.resume();
}

type RefusedSocket = Duplex & {
  _httpMessage?: ServerResponse | null;
  // Node's server gives a socket its parser until the socket closes (not writable: answered
  // below before the parser is read) or is upgraded (then no clientError comes).
  parser: { incoming: IncomingMessage | null };
};

/**
 * Node's own answer to a request it cannot parse (or one too slow or too large) has no body;
 * this gives it what every answer of the sandbox has: the reference's error shape with a message
 * that says what to fix, Request-Id, RateLimit-Policy and CORS; no body to a HEAD. Nothing is
 * written once an answer has begun on the socket, or while another request's answer is pending
 * (pipelining), so an answer is never corrupted.
 */
function clientErrorAnswerer(limits: { maxHeaderBytes: number; headersTimeoutMs: number; requestTimeoutMs: number }, policy: string) {
  const answered = new WeakSet<object>();
  return (error: Error & { code?: string; reason?: string; rawPacket?: Buffer; bytesParsed?: number }, socket: RefusedSocket): void => {
    // After a parse error Node keeps feeding the parser, which repeats the error for each chunk:
    // the first answer stands, and reading on (discarding) lets it reach the client before the
    // close, which the timer below bounds. Checked first: once answered, the socket is no longer
    // writable, and destroying it now would reset the answer away. A reset (ECONNRESET) comes
    // with the socket destroyed already, by Node, before its error is told.
    if (answered.has(socket) || draining.has(socket)) return;
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const pending = socket._httpMessage;
    // The request the parser was in, when it had read its headers: the fault is in its body.
    const current = socket.parser.incoming;
    const inBody = current && !current.complete ? current : undefined;
    // An answer pending for another request than the one refused (pipelining): a refusal written
    // now would be read as that one's answer, so the connection closes without a byte.
    if (pending?.headersSent || (pending && pending.req !== inBody)) {
      socket.destroy();
      return;
    }
    answered.add(socket);
    // A request whose headers the parser read always has its method.
    const refusal = refusalOf(
      error,
      limits,
      inBody === undefined ? undefined : { method: inBody.method as string, origin: inBody.headers.origin !== undefined },
    );
    const requestId = newRequestId();
    // The status goes on the status line below: the body holds only the code, message and param.
    const body = errorBody(new ApiError('parameter_invalid', { message: refusal.message, param: refusal.param }), requestId);
    // CORS as the app sends it: only to a request with Origin. When the header section did not
    // arrive whole (a 431, a time-out) nobody can tell, and a browser can read the error only
    // with them, while no other client minds two extra headers: they are sent.
    const cors =
      refusal.origin === false
        ? ''
        : Object.entries(CORS_HEADERS)
            .map(([name, value]) => `${name}: ${value}\r\n`)
            .join('');
    const head =
      `HTTP/1.1 ${refusal.status} ${refusal.reason}\r\nContent-Type: application/json\r\nRateLimit-Policy: ${policy}\r\n${cors}` +
      `Request-Id: ${requestId}\r\nDate: ${new Date().toUTCString()}\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
    // Ended rather than destroyed: the answer goes out before the FIN, and a reset of unread
    // bytes cannot overtake it. A HEAD gets the headers alone, as Node would answer it.
    socket.end(refusal.method === 'HEAD' ? head : head + body);
    // A peer that never reads, or never stops sending, would hold the socket: dropped regardless
    // after the lingering close's time (a client that read its answer closes long before).
    setTimeout(() => socket.destroy(), LINGER.maxMs).unref();
  };
}
