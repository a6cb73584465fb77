// The app behind @hono/node-server on a real loopback socket: its lightweight Request and
// Response differ from app.request's, so bodies, headers and size limits are checked here too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from './abuse/loopback.js';
import { startCli } from './cli-server.js';
import { header, parseWire, TRANSPORT_HEADERS } from './fuzz/wire.js';
import { PUBLIC_KEY, serveOnLoopback } from './helpers.js';

let served: Awaited<ReturnType<typeof serveOnLoopback>>;
let base: string;
const auth = { Authorization: `Bearer ${PUBLIC_KEY}` };

beforeAll(async () => {
  served = await serveOnLoopback();
  base = served.origin;
});

afterAll(() => served.close());

describe('on @hono/node-server', () => {
  it('serves a list and a record as the in-process app does, with the common headers', async () => {
    const list = await fetch(`${base}/v1/jobs?limit=3`, { headers: auth });
    expect(list.status).toBe(200);
    expect(list.headers.get('content-type')).toBe('application/json');
    expect(list.headers.get('ratelimit-policy')).toBe('25;w=1');
    expect(list.headers.get('request-id')).toMatch(/^req_/);
    const page = await list.json();
    expect(page.data).toHaveLength(3);
    const one = await fetch(`${base}/v1/jobs/${page.data[0].id}`, { headers: auth });
    expect(await one.json()).toEqual(page.data[0]);
  });

  it('reads a body with a Content-Length and one sent in chunks', async () => {
    const sites = await (await fetch(`${base}/v1/sites?limit=1`, { headers: auth })).json();
    const site = sites.data[0];
    const body = JSON.stringify({ type: 'ci_pickup', client: site.client, site: site.id });
    const sized = await fetch(`${base}/v1/jobs`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body });
    expect(sized.status, await sized.clone().text()).toBe(201);
    const chunked = await fetch(`${base}/v1/jobs`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: new Blob([body]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status, await chunked.clone().text()).toBe(201);
    expect((await chunked.json()).status).toBe('draft');
  });

  it('refuses a chunked body over 1 MiB with 413 while reading it', async () => {
    const chunk = new TextEncoder().encode(`{"name":"${'x'.repeat(64 * 1024)}`);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        // 2 MiB in 64 KiB chunks, never closed: the server must stop reading on its own.
        if (sent < 2 * 1024 * 1024) {
          controller.enqueue(chunk);
          sent += chunk.byteLength;
        }
      },
    });
    const response = await fetch(`${base}/v1/clients`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect((await response.json()).error).toMatchObject({ code: 'parameter_invalid' });
  });
});

describe('the built server with and without --log (issue #18)', () => {
  it('answers with the same header names, in their case and order, on GET and HEAD', async () => {
    const plain = await startCli(['--port', '0', '--rate-limit', '9']);
    const logged = await startCli(['--port', '0', '--rate-limit', '9', '--log']);
    try {
      const names = async (origin: string, method: string, path: string, auth: boolean) => {
        const port = Number(new URL(origin).port);
        const head = `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth ? `Authorization: Bearer ${PUBLIC_KEY}\r\n` : ''}Connection: close\r\n\r\n`;
        const answer = parseWire((await rawRequest(port, [head])).raw, [method], true).answers[0];
        expect(answer, `${method} ${path}`).toBeDefined();
        expect(header(answer as never, 'RateLimit-Policy')).toBe('9;w=1');
        return answer?.headers.map(([name]) => name).filter((name) => !TRANSPORT_HEADERS.has(name.toLowerCase()));
      };
      for (const [path, auth] of [
        ['/v1/jobs?limit=1', true],
        ['/v1/jobs', false],
        ['/v1/nope', true],
      ] as const) {
        const get = await names(plain.origin, 'GET', path, auth);
        expect(get).toContain('Request-Id');
        expect(await names(logged.origin, 'GET', path, auth), `GET ${path} with --log`).toEqual(get);
        expect(await names(plain.origin, 'HEAD', path, auth), `HEAD ${path}`).toEqual(get);
        expect(await names(logged.origin, 'HEAD', path, auth), `HEAD ${path} with --log`).toEqual(get);
      }
      // The log still names the request ID the answer carried, and HEAD as HEAD.
      await new Promise((wait) => setTimeout(wait, 50));
      expect(logged.output()).toMatch(/\n\d{4}-\d\d-\d\dT[\d:.]+Z HEAD \/v1\/jobs\?limit=1 200 [\d.]+ms req_\w{24}\n/);
    } finally {
      plain.stop();
      logged.stop();
    }
  });
});
