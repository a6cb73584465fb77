// The lingering close of src/node-server.ts (issue #18; nginx's): an answer given while the
// request's body is still arriving (a 413 on Content-Length, a 401 on an upload) is written at
// once, then the rest of the body is read and discarded, and the answer is finished only when the
// body ends, or at a bound: 10 s in all, 2 s without a byte, 64 MiB. Past a bound the socket is
// dropped 1 s later. The timers are faked (setTimeout alone: sockets and Node's own time-outs run
// for real), so each bound is met exactly, never waited for.
//
// The answer here is 32 MiB, more than loopback's socket buffers hold, and the client does not
// read it until the test says so: an answer the client has not read stays in the server, so what
// the server does at each bound (finish the answer, drop the socket) is seen there.
import type { Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { allRead, type Edge, type Exchange, openPeer, type Peer, readAnswer, startEdge, until } from './edge.js';

const MiB = 1024 * 1024;
const ANSWER = 'x'.repeat(32 * MiB);
let edge: Edge;

beforeAll(async () => {
  // As the app answers a body it need not read: at once, before the body arrives.
  edge = await startEdge(() => new Response(ANSWER, { status: 413, headers: { 'Content-Type': 'text/plain' } }));
});

afterEach(() => {
  vi.useRealTimers();
});

afterAll(async () => {
  await edge.close();
});

interface Upload {
  peer: Peer;
  exchange: Exchange;
  /** The server's side of the connection. */
  socket: Socket;
}

/** A POST that announces `length` bytes and sends `first` of them; resolves once answered and those bytes are read. */
async function upload(length: number, first: number): Promise<Upload> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const peer = await openPeer(edge.port, { paused: true });
  const arriving = edge.nextExchange();
  await peer.send(`POST /v1/clients HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${length}\r\n\r\n${'b'.repeat(first)}`);
  const exchange = await arriving;
  const socket = await edge.serverSide(peer);
  // The answer's first bytes go out as the drain starts.
  await until(() => exchange.outgoing.headersSent, 'the answer written');
  await allRead(socket, peer);
  return { peer, exchange, socket };
}

/** Once the request closed on the server, its body read to the end (after the drain's own listener saw it). */
function bodyEnded({ exchange }: Upload): Promise<void> {
  if (exchange.incoming.closed) return Promise.resolve();
  return new Promise((resolve) => exchange.incoming.once('close', () => resolve()));
}

/** The client reads what it was sent: the answer's head, how much of its body came, and how it ended. */
async function readAll(peer: Peer): Promise<{ status: string; declared: number; got: number; error: string | undefined }> {
  const error = await peer.finish();
  const answer = readAnswer(peer.received());
  return { status: answer.statusLine, declared: Number(answer.header('Content-Length')), got: answer.body.length, error };
}

/** Past a bound, the socket is dropped 1 s later, and the client, which had not read it all, got part of its answer. */
async function expectDroppedASecondLater(sending: Upload): Promise<void> {
  vi.advanceTimersByTime(999);
  expect(sending.socket.destroyed).toBe(false);
  vi.advanceTimersByTime(1);
  expect(sending.socket.destroyed, 'dropped 1 s after the bound').toBe(true);
  const read = await readAll(sending.peer);
  expect(read.got, 'the answer cut short').toBeLessThan(read.declared);
}

describe('an answer given while the body arrives', () => {
  it('is written at once and says Connection: close', async () => {
    const sending = await upload(1_000, 100);
    expect(sending.exchange.outgoing.writableEnded).toBe(false);
    await sending.peer.send('b'.repeat(900));
    await bodyEnded(sending);
    expect(sending.exchange.outgoing.writableEnded, 'finished when the body ended').toBe(true);
    const read = await readAll(sending.peer);
    expect(read).toEqual({ status: 'HTTP/1.1 413 Payload Too Large', declared: 32 * MiB, got: 32 * MiB, error: undefined });
    expect(readAnswer(sending.peer.received()).header('Connection')).toBe('close');
  });

  it('is finished 2 s after the last byte of a body that stops, and the socket dropped 1 s later', async () => {
    const sending = await upload(1_000, 100);
    vi.advanceTimersByTime(1_999);
    expect(sending.exchange.outgoing.writableEnded).toBe(false);
    vi.advanceTimersByTime(1);
    expect(sending.exchange.outgoing.writableEnded, 'finished at 2 s without a byte').toBe(true);
    // The client has not read its answer: it is still in the server, until the socket goes.
    await expectDroppedASecondLater(sending);
  });

  it('is kept while bytes keep coming, and finished as the body ends, for a client that reads it later', async () => {
    const sending = await upload(1_000, 100);
    // 4.5 s in all, never 2 s without a byte.
    for (let step = 0; step < 3; step++) {
      vi.advanceTimersByTime(1_500);
      await sending.peer.send('b'.repeat(100));
      await allRead(sending.socket, sending.peer);
      expect(sending.exchange.outgoing.writableEnded, `after ${1.5 * (step + 1)} s`).toBe(false);
    }
    await sending.peer.send('b'.repeat(600));
    await bodyEnded(sending);
    expect(sending.exchange.outgoing.writableEnded, 'finished when the body ended').toBe(true);
    // A whole body: nothing drops the socket, however long the client takes to read.
    vi.advanceTimersByTime(60_000);
    expect(sending.socket.destroyed).toBe(false);
    expect(await readAll(sending.peer)).toEqual({
      status: 'HTTP/1.1 413 Payload Too Large',
      declared: 32 * MiB,
      got: 32 * MiB,
      error: undefined,
    });
  });

  it('is finished after 10 s in all of a body that trickles, and the socket dropped 1 s later', async () => {
    const sending = await upload(10_000, 10);
    for (let step = 1; step <= 6; step++) {
      vi.advanceTimersByTime(1_500);
      await sending.peer.send('b'.repeat(10));
      await allRead(sending.socket, sending.peer);
    }
    // 9 s.
    vi.advanceTimersByTime(999);
    expect(sending.exchange.outgoing.writableEnded).toBe(false);
    vi.advanceTimersByTime(1);
    expect(sending.exchange.outgoing.writableEnded, 'finished at 10 s').toBe(true);
    await expectDroppedASecondLater(sending);
  });

  it('is finished as the body passes 64 MiB, not at 64 MiB, and the socket dropped 1 s later', async () => {
    const sending = await upload(64 * MiB + 2, 0);
    const piece = Buffer.alloc(MiB, 0x62);
    for (let sent = 0; sent < 64; sent++) await sending.peer.send(piece);
    await allRead(sending.socket, sending.peer);
    expect(sending.exchange.outgoing.writableEnded, 'exactly 64 MiB read').toBe(false);
    await sending.peer.send('b');
    await allRead(sending.socket, sending.peer);
    expect(sending.exchange.outgoing.writableEnded, 'one byte past 64 MiB').toBe(true);
    await expectDroppedASecondLater(sending);
  });

  it('is finished at once when the client goes away mid-body', async () => {
    const sending = await upload(1_000, 100);
    const closed = new Promise((resolve) => sending.exchange.incoming.once('close', resolve));
    sending.peer.socket.resetAndDestroy();
    await closed;
    expect(sending.exchange.outgoing.writableEnded).toBe(true);
  });
});
