// The app behind the Node server of src/node-server.ts, in-process on a loopback port: what the
// edge does around the app's answers (a connection kept alive after a request read whole, the
// reset of reset_after_write), and which address names the client: the socket's peer, or
// X-Forwarded-For behind --trust-proxy N (docs/behaviour.md, "Shared keys and the client's address").
import type { Context } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { rateLimitPolicy, readConfig } from '../../src/config.js';
import { clientAddressOf, socketAddress } from '../../src/node-server.js';
import { PUBLIC_KEY } from '../helpers.js';
import { type Edge, openPeer, readAnswer, startEdge, until, wholeAnswer } from './edge.js';

const JOB_BODY = JSON.stringify({ type: 'ci_pickup', client: 'cli_seII9pzPSgmmJJ', site: 'site_boDWBFERDT5aI9' });

/** The app as the CLI builds it, its client's address told by `clientAddress`; every address it was told is kept. */
function appWith(clientAddress: (c: Context) => string): { app: ReturnType<typeof createApp>; addresses: string[] } {
  const addresses: string[] = [];
  const config = readConfig({ SANDBOX_RATE_LIMIT: 'off' });
  const app = createApp(config, {
    clientAddress: (c) => {
      const address = clientAddress(c as unknown as Context);
      addresses.push(address);
      return address;
    },
  });
  return { app, addresses };
}

async function serve(app: ReturnType<typeof createApp>): Promise<Edge> {
  return startEdge((request, exchange) => app.fetch(request, exchange), { rateLimitPolicy: rateLimitPolicy(null) });
}

/** A job created with an Idempotency-Key (on a shared key: kept per client address); the answer's head and ID. */
async function createJob(edge: Edge, key: string, headers: Record<string, string | string[]> = {}) {
  const lines = Object.entries(headers).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value]).map((one) => `${name}: ${one}\r\n`),
  );
  const peer = await openPeer(edge.port);
  await peer.send(
    `POST /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${PUBLIC_KEY}\r\nContent-Type: application/json\r\n` +
      `Idempotency-Key: ${key}\r\n${lines.join('')}Content-Length: ${JOB_BODY.length}\r\nConnection: close\r\n\r\n${JOB_BODY}`,
  );
  const error = await peer.finish();
  return { error, raw: peer.received() };
}

async function jobOf(edge: Edge, key: string, headers: Record<string, string | string[]> = {}) {
  const { raw } = await createJob(edge, key, headers);
  const answer = readAnswer(raw);
  expect(answer.statusLine, answer.body.toString()).toBe('HTTP/1.1 201 Created');
  return { id: JSON.parse(answer.body.toString('utf8')).id as string, replayed: answer.header('Idempotent-Replayed') === 'true' };
}

describe('around the app', () => {
  let edge: Edge;
  let addresses: string[];

  beforeAll(async () => {
    const built = appWith(socketAddress);
    addresses = built.addresses;
    edge = await serve(built.app);
  });

  afterAll(async () => {
    await edge.close();
  });

  it('a request read whole is answered on a connection kept alive: the next request on it is answered too', async () => {
    const peer = await openPeer(edge.port);
    const get = `GET /v1/jobs?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${PUBLIC_KEY}\r\n\r\n`;
    await peer.send(get);
    await until(() => wholeAnswer(peer.received()), 'the first answer');
    const first = readAnswer(peer.received());
    expect(first.statusLine).toBe('HTTP/1.1 200 OK');
    expect(first.header('Connection')).toBe('keep-alive');
    // A POST whose body came with it is read whole too.
    await peer.send(
      `POST /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${PUBLIC_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${JOB_BODY.length}\r\n\r\n${JOB_BODY}`,
    );
    await until(() => wholeAnswer(readAnswer(peer.received()).rest), 'the second answer');
    const second = readAnswer(readAnswer(peer.received()).rest);
    expect(second.statusLine).toBe('HTTP/1.1 201 Created');
    expect(second.header('Connection')).toBe('keep-alive');
    expect(peer.ended, 'the connection still open').toBe(false);
    peer.socket.destroy();
  });

  it("reset_after_write: the connection is reset before any byte of the answer; the write ran, and its key's retry replays it", async () => {
    const lost = await createJob(edge, 'node-edge-reset-1', { 'Sandbox-Simulate': 'reset_after_write' });
    expect(lost.error).toBe('ECONNRESET');
    expect(lost.raw.length).toBe(0);
    const retried = await jobOf(edge, 'node-edge-reset-1');
    expect(retried.replayed).toBe(true);
  });

  it("the client's address is the socket's peer", async () => {
    addresses.length = 0;
    await jobOf(edge, 'node-edge-address-1');
    expect(addresses).toEqual(['127.0.0.1']);
  });
});

describe("the client's address behind --trust-proxy", () => {
  it('0 (the default): X-Forwarded-For is never read, whatever it names', async () => {
    const { app, addresses } = appWith(clientAddressOf(0));
    const edge = await serve(app);
    try {
      const first = await jobOf(edge, 'node-edge-proxy-0', { 'X-Forwarded-For': '203.0.113.1' });
      const again = await jobOf(edge, 'node-edge-proxy-0', { 'X-Forwarded-For': '198.51.100.2' });
      expect(again).toEqual({ id: first.id, replayed: true });
      expect(addresses).toEqual(['127.0.0.1', '127.0.0.1']);
    } finally {
      await edge.close();
    }
  });

  it('1: the last entry of X-Forwarded-For, over all its lines; the peer without the header', async () => {
    const { app, addresses } = appWith(clientAddressOf(1));
    const edge = await serve(app);
    try {
      const first = await jobOf(edge, 'node-edge-proxy-1', { 'X-Forwarded-For': '203.0.113.1, 198.51.100.2' });
      // Another client behind the same proxy: its own Idempotency-Keys.
      const other = await jobOf(edge, 'node-edge-proxy-1', { 'X-Forwarded-For': '203.0.113.1, 198.51.100.3' });
      expect(other.replayed).toBe(false);
      expect(other.id).not.toBe(first.id);
      // Repeated lines are one list (Node joins them in order): the same client as the first.
      const again = await jobOf(edge, 'node-edge-proxy-1', { 'X-Forwarded-For': ['192.0.2.9', '198.51.100.2'] });
      expect(again).toEqual({ id: first.id, replayed: true });
      await jobOf(edge, 'node-edge-proxy-1');
      expect(addresses).toEqual(['198.51.100.2', '198.51.100.3', '198.51.100.2', '127.0.0.1']);
    } finally {
      await edge.close();
    }
  });
});

describe('the address functions, given what Node gives them', () => {
  const context = (env: unknown) => ({ env }) as unknown as Context;
  const behind = (headers: Record<string, string | string[]>, remoteAddress?: string) =>
    context({ incoming: { headers, socket: remoteAddress === undefined ? {} : { remoteAddress } } });

  it("socketAddress: the peer, or 'unknown' without a socket's address (in-process, no Node request)", () => {
    expect(socketAddress(behind({ 'x-forwarded-for': '203.0.113.1' }, '192.0.2.7'))).toBe('192.0.2.7');
    expect(socketAddress(behind({}))).toBe('unknown');
    expect(socketAddress(context({}))).toBe('unknown');
    expect(socketAddress(context(undefined))).toBe('unknown');
  });

  it('clientAddressOf(0) is the peer, X-Forwarded-For or not', () => {
    expect(clientAddressOf(0)(behind({ 'x-forwarded-for': '203.0.113.1' }, '192.0.2.7'))).toBe('192.0.2.7');
    expect(clientAddressOf(0)(context(undefined))).toBe('unknown');
  });

  it('clientAddressOf(n): the entry n hops back; an array header is one list, in order', () => {
    const proxied = behind({ 'x-forwarded-for': '203.0.113.1, 198.51.100.2' }, '192.0.2.7');
    expect(clientAddressOf(1)(proxied)).toBe('198.51.100.2');
    expect(clientAddressOf(2)(proxied)).toBe('203.0.113.1');
    const lines = behind({ 'x-forwarded-for': ['203.0.113.1, 203.0.113.2', '198.51.100.3'] }, '192.0.2.7');
    expect(clientAddressOf(1)(lines)).toBe('198.51.100.3');
    expect(clientAddressOf(2)(lines)).toBe('203.0.113.2');
    expect(clientAddressOf(3)(lines)).toBe('203.0.113.1');
  });

  it("clientAddressOf(n) without the header: the peer, else 'unknown'", () => {
    expect(clientAddressOf(1)(behind({}, '192.0.2.7'))).toBe('192.0.2.7');
    expect(clientAddressOf(1)(behind({}))).toBe('unknown');
    expect(clientAddressOf(1)(context({}))).toBe('unknown');
    expect(clientAddressOf(1)(context(undefined))).toBe('unknown');
  });
});
