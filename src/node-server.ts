// The Node HTTP server around the app: @hono/node-server with the limits a public sandbox needs.
// One function, so the CLI (src/server.ts), the abuse tests and the soak all start the very same
// server.
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { serve } from '@hono/node-server';
import type { Context } from 'hono';
import { ApiError, errorBody } from './errors.js';
import { newRequestId } from './http/request-id.js';

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
}

export const NODE_SERVER_DEFAULTS = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  connectionsCheckingIntervalMs: 1_000,
  maxHeaderBytes: 16 * 1024,
} as const;

type FetchHandler = (request: Request, env: { incoming: IncomingMessage }) => Response | Promise<Response>;

/** The client's address as the socket gives it, for rate-limit buckets. */
export function socketAddress(c: Context): string {
  return (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket.remoteAddress ?? 'unknown';
}

/** Starts listening; `onListening` gets the bound address (port 0 picks a free port). */
export function startNodeServer(fetch: FetchHandler, options: NodeServerOptions, onListening?: (info: AddressInfo) => void): Server {
  const limits = { ...NODE_SERVER_DEFAULTS, ...definedOnly(options) };
  const server = serve(
    {
      fetch: fetch as never,
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
  server.on('clientError', answerClientError);
  return server;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as Partial<T>;
}

/** Requests Node refuses before the app sees them, with the status Node itself would give. */
function clientErrorOf(code: string | undefined): { status: 400 | 408 | 431; reason: string; message: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        reason: 'Request Header Fields Too Large',
        message: 'The request line and headers are larger than 16 KiB.',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, reason: 'Request Timeout', message: 'The request did not arrive in time.' };
    default:
      return { status: 400, reason: 'Bad Request', message: 'The request is not valid HTTP/1.1.' };
  }
}

/**
 * Node's own answer to a request it cannot parse (or one too slow or too large) has no body;
 * this gives it the reference's error shape. As in Node's default handler, nothing is written
 * once a response has begun on the socket, so a reply is never corrupted.
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex & { _httpMessage?: { headersSent?: boolean } }): void {
  if (error.code === 'ECONNRESET' || !socket.writable || socket._httpMessage?.headersSent) {
    socket.destroy();
    return;
  }
  const { status, reason, message } = clientErrorOf(error.code);
  const requestId = newRequestId();
  const body = errorBody(new ApiError('parameter_invalid', { ...(status === 400 ? {} : { status }), message }), requestId);
  socket.write(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
  // A peer that never reads would hold the socket: drop it regardless after a short grace.
  setTimeout(() => socket.destroy(), 1_000).unref();
}
