// whenHeadWritten (src/node-server.ts), which the request log of --log uses (src/cli/serve.ts): the
// status and headers of an answer as they go on the wire, read without touching the answer (reading
// `response.headers` would make @hono/node-server write the names lower-cased and sorted, issue #18).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { readConfig } from '../../src/config.js';
import { socketAddress, whenHeadWritten } from '../../src/node-server.js';
import { PUBLIC_KEY } from '../helpers.js';
import { openPeer, readAnswer, startEdge } from './edge.js';

interface Head {
  status: number;
  values: Record<string, string | undefined>;
}

/** The values the callback's `header` gives for `names`, asked as written. */
function asking(names: string[], heads: Head[]) {
  return (status: number, header: (name: string) => string | undefined) =>
    heads.push({ status, values: Object.fromEntries(names.map((name) => [name, header(name)])) });
}

/** A GET on a new connection, read until the server closes it. */
async function get(port: number, request: string) {
  const peer = await openPeer(port);
  await peer.send(request);
  await peer.finish();
  return readAnswer(peer.received());
}

describe('whenHeadWritten', () => {
  it('is false, and never calls back, without a Node response (in-process)', () => {
    const heads: Head[] = [];
    expect(whenHeadWritten(undefined, asking([], heads))).toBe(false);
    expect(whenHeadWritten({}, asking([], heads))).toBe(false);
    expect(heads).toEqual([]);
  });

  it("gives the app's status and headers as written, by any case of their names, and changes no byte", async () => {
    const app = createApp(readConfig({ SANDBOX_RATE_LIMIT: 'off' }), { clientAddress: socketAddress });
    const heads: Head[] = [];
    const hooked: boolean[] = [];
    const edge = await startEdge((request, exchange) => {
      hooked.push(whenHeadWritten(exchange, asking(['Request-Id', 'REQUEST-ID', 'sandbox-fault', 'Retry-After'], heads)));
      return app.fetch(request, exchange);
    });
    try {
      const answer = await get(
        edge.port,
        `GET /v1/jobs?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${PUBLIC_KEY}\r\nSandbox-Simulate: delay=1\r\nConnection: close\r\n\r\n`,
      );
      expect(answer.statusLine).toBe('HTTP/1.1 200 OK');
      // The names as the app writes them, not lower-cased and sorted.
      expect(answer.names).toEqual(
        expect.arrayContaining(['Content-Type', 'RateLimit-Policy', 'Request-Id', 'Sandbox-Fault', 'Content-Length']),
      );
      const id = answer.header('Request-Id');
      expect(id).toMatch(/^req_/);
      expect(hooked).toEqual([true]);
      expect(heads).toEqual([
        { status: 200, values: { 'Request-Id': id, 'REQUEST-ID': id, 'sandbox-fault': 'delay=1', 'Retry-After': undefined } },
      ]);

      const refused = await get(edge.port, 'GET /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
      expect(refused.statusLine).toBe('HTTP/1.1 401 Unauthorized');
      const refusedId = refused.header('Request-Id');
      expect(heads[1]).toEqual({
        status: 401,
        values: { 'Request-Id': refusedId, 'REQUEST-ID': refusedId, 'sandbox-fault': undefined, 'Retry-After': undefined },
      });
    } finally {
      await edge.close();
    }
  });

  it('reads headers given as a flat array of names and values, after a status message, as Node takes them', async () => {
    const heads: Head[] = [];
    const hooked: boolean[] = [];
    const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
      hooked.push(whenHeadWritten({ incoming, outgoing }, asking(['x-first', 'Request-Id', 'X-LAST', 'Sandbox-Fault'], heads)));
      outgoing.writeHead(201, 'Made', ['X-First', 'one', 'Request-Id', 'req_array', 'X-Last', 'three']);
      outgoing.end('made');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const answer = await get((server.address() as AddressInfo).port, 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
      expect(answer.statusLine).toBe('HTTP/1.1 201 Made');
      expect(answer.names.slice(0, 3)).toEqual(['X-First', 'Request-Id', 'X-Last']);
      expect(hooked).toEqual([true]);
      expect(heads).toEqual([
        { status: 201, values: { 'x-first': 'one', 'Request-Id': 'req_array', 'X-LAST': 'three', 'Sandbox-Fault': undefined } },
      ]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('calls back once, then hands the call to the response as it was; a name without its value is no header', () => {
    const heads: Head[] = [];
    const calls: unknown[][] = [];
    const response = {
      writeHead(this: unknown, ...args: unknown[]) {
        calls.push([this === response, ...args]);
        return this;
      },
    };
    expect(whenHeadWritten({ outgoing: response }, asking(['A', 'Dangling'], heads))).toBe(true);
    const headers = ['A', '1', 'Dangling'];
    expect(response.writeHead(204, headers)).toBe(response);
    response.writeHead(200, { A: '2' });
    expect(heads).toEqual([{ status: 204, values: { A: '1', Dangling: undefined } }]);
    expect(calls).toEqual([
      [true, 204, headers],
      [true, 200, { A: '2' }],
    ]);
  });
});
