// The Node server of src/node-server.ts on a loopback port, in-process, around a handler the test
// writes (as the CLI puts the app there), and a raw socket client that can hold back its reading,
// keep its side open or reset. What the edge does with a connection is seen from both ends: the
// bytes the client gets and when, and the server's own request, response and socket objects.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { type NodeServerOptions, startNodeServer } from '../../src/node-server.js';

/** What the handler of one request gets: the Request, and Node's objects under it. */
export interface Exchange {
  request: Request;
  incoming: IncomingMessage;
  outgoing: ServerResponse;
}

export type Handler = (request: Request, exchange: Exchange) => Response | Promise<Response>;

export interface Edge {
  port: number;
  server: Server;
  /** The next request that reaches the handler. */
  nextExchange(): Promise<Exchange>;
  /** The server's side of the connection of `peer`. */
  serverSide(peer: Peer): Promise<Socket>;
  close(): Promise<void>;
}

/** One queue of things that arrive, taken in order by whoever waits for them. */
function arrivals<T>(): { add(item: T): void; next(): Promise<T> } {
  const early: T[] = [];
  const waiting: ((item: T) => void)[] = [];
  return {
    add(item) {
      const waiter = waiting.shift();
      if (waiter === undefined) early.push(item);
      else waiter(item);
    },
    next() {
      const item = early.shift();
      return item === undefined ? new Promise((resolve) => waiting.push(resolve)) : Promise.resolve(item);
    },
  };
}

/** startNodeServer on 127.0.0.1, a free port, as the CLI starts it (src/cli/serve.ts). */
export async function startEdge(handler: Handler, options: Omit<NodeServerOptions, 'port' | 'hostname'> = {}): Promise<Edge> {
  const exchanges = arrivals<Exchange>();
  const connections = new Map<number, Socket>();
  const server: Server = await new Promise((resolve) => {
    const started = startNodeServer(
      (request, env) => {
        const exchange = { request, incoming: env.incoming, outgoing: env.outgoing };
        exchanges.add(exchange);
        return handler(request, exchange);
      },
      { port: 0, hostname: '127.0.0.1', ...options },
      () => resolve(started),
    );
  });
  server.on('connection', (socket: Socket) => {
    const port = socket.remotePort;
    if (port === undefined) return;
    connections.set(port, socket);
    socket.once('close', () => {
      if (connections.get(port) === socket) connections.delete(port);
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    server,
    nextExchange: exchanges.next,
    serverSide: async (peer) => {
      const port = peer.socket.localPort;
      await until(() => port !== undefined && connections.has(port), 'the server accepting the connection');
      return connections.get(port as number) as Socket;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Waits, turn by turn of the event loop (real turns, whatever a test does to the timers), until
 * `condition` holds. The cap only stops a test that would otherwise hang; nothing is timed.
 */
export async function until(condition: () => boolean, what: string): Promise<void> {
  // Mostly turns of the loop (I/O runs between them); a millisecond's sleep now and then, so that
  // the cap, 10,000 of them, is at least 10 s of real time whatever the machine's speed.
  for (let turn = 0, sleeps = 0; !condition(); turn++) {
    if (turn % 20 !== 19) await nextTurn();
    else if (++sleeps > 10_000) throw new Error(`never happened: ${what}`);
    else await sleep(1);
  }
}

/** A raw client connection; its side stays open until it ends it (allowHalfOpen). */
export interface Peer {
  socket: Socket;
  /** Bytes handed to the kernel so far. */
  readonly sent: number;
  /** Every byte received so far (none while paused). */
  received(): Buffer;
  /** Sends, and resolves once the bytes left this process (or the socket failed). */
  send(data: string | Buffer): Promise<void>;
  /** Starts reading, for a peer opened paused. */
  resume(): void;
  /** Resolves when the socket closed: with the error it met, if any (EPIPE, ECONNRESET). */
  closed: Promise<string | undefined>;
  /** Whether the server ended its side (a FIN read). */
  readonly ended: boolean;
  /** The error the socket met so far, if any. */
  readonly error: string | undefined;
  /** Reads on until the server ends its side or the socket fails, then ends this side: how it closed. */
  finish(): Promise<string | undefined>;
}

/** Opens a connection; `paused`: it reads nothing until `resume()`, as a client that sends its whole body first. */
export async function openPeer(port: number, options: { paused?: boolean } = {}): Promise<Peer> {
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  const chunks: Buffer[] = [];
  let sent = 0;
  let ended = false;
  let error: string | undefined;
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  if (options.paused) socket.pause();
  const serverEnded = new Promise<void>((resolve) => {
    socket.once('end', () => {
      ended = true;
      resolve();
    });
    socket.once('close', () => resolve());
  });
  socket.on('error', (cause: NodeJS.ErrnoException) => {
    error ??= cause.code ?? cause.message;
  });
  const closed = new Promise<string | undefined>((resolve) => socket.once('close', () => resolve(error)));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return {
    socket,
    get sent() {
      return sent;
    },
    get ended() {
      return ended;
    },
    get error() {
      return error;
    },
    received: () => Buffer.concat(chunks),
    send: (data) =>
      new Promise<void>((resolve) => {
        const bytes = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
        socket.write(bytes, (failure) => {
          if (failure === undefined || failure === null) sent += bytes.length;
          resolve();
        });
      }),
    resume: () => socket.resume(),
    closed,
    finish: async () => {
      socket.resume();
      await serverEnded;
      socket.end();
      return closed;
    },
  };
}

/** Until the server has read every byte `peer` sent (and handed it to the request). */
export async function allRead(serverSide: Socket, peer: Peer): Promise<void> {
  await until(() => serverSide.bytesRead === peer.sent, `the server reading the ${peer.sent} bytes sent`);
  await nextTurn();
}

/** One answer as it came on the wire: the status line, header names in their order and case, the body. */
export interface WireAnswer {
  statusLine: string;
  names: string[];
  header(name: string): string | undefined;
  body: Buffer;
  /** Bytes after the answer's head and Content-Length bytes of body. */
  rest: Buffer;
}

/** Reads the first answer of `raw`; a HEAD's answer has no body whatever its Content-Length. */
export function readAnswer(raw: Buffer, method = 'GET'): WireAnswer {
  const end = raw.indexOf('\r\n\r\n');
  if (end === -1) throw new Error(`no answer head in ${JSON.stringify(raw.subarray(0, 200).toString('latin1'))}`);
  const [statusLine = '', ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const pairs = lines.map((line) => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon), line.slice(colon + 1).trim()] as const;
  });
  const header = (name: string) => pairs.find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];
  const length = method === 'HEAD' ? 0 : Number(header('Content-Length') ?? 0);
  return {
    statusLine,
    names: pairs.map(([name]) => name),
    header,
    body: raw.subarray(end + 4, end + 4 + length),
    rest: raw.subarray(end + 4 + length),
  };
}

/** Whether `raw` holds one whole answer (by its Content-Length). */
export function wholeAnswer(raw: Buffer, method = 'GET'): boolean {
  const end = raw.indexOf('\r\n\r\n');
  if (end === -1) return false;
  const answer = readAnswer(raw, method);
  return method === 'HEAD' || answer.body.length === Number(answer.header('Content-Length') ?? 0);
}
