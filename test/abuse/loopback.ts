// A real loopback server for the abuse cases that are about the socket, started exactly as the
// CLI starts it (src/node-server.ts) but with timeouts of a fraction of a second, so no test
// waits for Node's defaults; and a raw socket client that can send what fetch never would.
import type { Server } from 'node:http';
import { connect } from 'node:net';
import { createApp } from '../../src/app.js';
import { readConfig } from '../../src/config.js';
import { rateLimitPolicy } from '../../src/config.js';
import { type NodeServerOptions, socketAddress, startNodeServer } from '../../src/node-server.js';
import { PUBLIC_KEY } from '../helpers.js';

export interface Loopback {
  port: number;
  close(): Promise<void>;
}

/** Test timeouts: headers within 300 ms, a whole request within 600 ms, swept every 100 ms. */
export const FAST_LIMITS: Omit<NodeServerOptions, 'port' | 'hostname'> = {
  headersTimeoutMs: 300,
  requestTimeoutMs: 600,
  connectionsCheckingIntervalMs: 100,
};

/** `rateLimit` as SANDBOX_RATE_LIMIT takes it (default off, so tests are never throttled). */
export async function startLoopback(limits = FAST_LIMITS, rateLimit = 'off'): Promise<Loopback> {
  const config = readConfig({ SANDBOX_RATE_LIMIT: rateLimit });
  const app = createApp(config, { clientAddress: socketAddress });
  const server: Server = await new Promise((resolve) => {
    const options = { port: 0, hostname: '127.0.0.1', rateLimitPolicy: rateLimitPolicy(config.rateLimit), ...limits };
    const started = startNodeServer(app.fetch, options, () => resolve(started));
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface RawAnswer {
  /** The status of the first response line, or null when the server answered nothing. */
  status: number | null;
  headers: string;
  body: string;
  /** Whether the server closed the connection (rather than the client giving up). */
  closedByServer: boolean;
  elapsedMs: number;
  /** The socket's error, if any (EPIPE, ECONNRESET: the server closed while the client sent). */
  error: string | undefined;
  /** Every byte the server sent, for tests that parse the answer themselves. */
  raw: Buffer;
}

/**
 * Sends bytes on a fresh socket, `chunks` one after another with `gapMs` between them, and
 * collects everything the server answers until it closes the connection or `timeoutMs` passes.
 */
export function rawRequest(
  port: number,
  chunks: (string | Buffer)[],
  options: { gapMs?: number; timeoutMs?: number; readAfterSending?: boolean } = {},
): Promise<RawAnswer> {
  const { gapMs = 0, timeoutMs = 3000, readAfterSending = false } = options;
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let closedByServer = false;
    let error: string | undefined;
    let timer: NodeJS.Timeout | undefined;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const raw = Buffer.concat(received);
      const text = raw.toString('latin1');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1];
      resolve({
        status: status === undefined ? null : Number(status),
        headers: head,
        body: rest.join('\r\n\r\n'),
        closedByServer,
        elapsedMs: Date.now() - started,
        error,
        raw,
      });
    };
    // Like many simple clients, optionally send everything before reading anything.
    if (readAfterSending) socket.pause();
    socket.on('data', (chunk) => received.push(chunk));
    socket.on('end', () => {
      closedByServer = true;
      finish();
    });
    socket.on('close', () => {
      closedByServer = true;
      finish();
    });
    socket.on('error', (cause: NodeJS.ErrnoException) => {
      error ??= cause.code ?? cause.message;
    });
    timer = setTimeout(finish, timeoutMs);
    (async () => {
      for (const [index, chunk] of chunks.entries()) {
        if (index > 0 && gapMs > 0) await new Promise((wait) => setTimeout(wait, gapMs));
        if (socket.destroyed) return;
        // Backpressure is respected, so a large body is really sent while the server answers.
        if (!socket.write(chunk)) await new Promise((drained) => socket.once('drain', drained).once('close', drained));
      }
      if (readAfterSending) socket.resume();
    })();
  });
}

/** A normal request on another connection: the process keeps serving other clients. */
export async function normalRequestSucceeds(port: number): Promise<boolean> {
  const response = await fetch(`http://127.0.0.1:${port}/v1/jobs?limit=1`, { headers: { Authorization: `Bearer ${PUBLIC_KEY}` } });
  await response.arrayBuffer();
  return response.status === 200;
}
