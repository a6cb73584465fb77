// The client's address behind the operator's own proxies (docs/behaviour.md, "Shared keys and the
// client's address"; README, SANDBOX_TRUST_PROXY): the entry n hops back from the end of
// X-Forwarded-For, the socket's peer without the header, the first entry of a short one. Seen
// through HTTP on an in-process server started as the CLI starts it with --trust-proxy n: on a
// shared key, an Idempotency-Key's result belongs to the key and the client's address, so a retry
// replays exactly when the address chosen is the same. Clients of their own are source addresses
// on 127.0.0.0/8 (all of it is the loopback on Linux). Then the parser of the setting's text.
import type { Server } from 'node:http';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { readConfig } from '../../src/config.js';
import { forwardedAddress, parseTrustProxy } from '../../src/http-edge/forwarded-for.js';
import { clientAddressOf, startNodeServer } from '../../src/node-server.js';
import { PUBLIC_KEY } from '../helpers.js';

const PROXY = '127.0.0.2';
const OTHER_PROXY = '127.0.0.3';
const BODY = JSON.stringify({ url: 'https://example.com/hooks', events: ['*'] });

interface Running {
  port: number;
  server: Server;
}

async function startTrusting(trustProxy: number): Promise<Running> {
  const app = createApp(readConfig({ SANDBOX_RATE_LIMIT: 'off' }), { clientAddress: clientAddressOf(trustProxy) });
  const server: Server = await new Promise((resolve) => {
    const started = startNodeServer(app.fetch, { port: 0, hostname: '127.0.0.1' }, () => resolve(started));
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { port: address.port, server };
}

function stop({ server }: Running): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

/**
 * Creates the same webhook endpoint under `key` from the socket address `from`, with these
 * X-Forwarded-For lines (none, one, or several). "fresh" when it ran, "replayed" when the
 * sandbox answered the stored result: the same client as an earlier request under that key.
 */
function create(running: Running, key: string, from: string, forwardedFor: string | string[] | undefined): Promise<'fresh' | 'replayed'> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port: running.port,
        path: '/v1/webhook_endpoints',
        method: 'POST',
        localAddress: from,
        agent: false,
        headers: {
          Authorization: `Bearer ${PUBLIC_KEY}`,
          'Content-Type': 'application/json',
          'Idempotency-Key': key,
          ...(forwardedFor === undefined ? {} : { 'X-Forwarded-For': forwardedFor }),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => {
          if (response.statusCode !== 201) reject(new Error(`${response.statusCode}: ${text}`));
          else resolve(response.headers['idempotent-replayed'] === 'true' ? 'replayed' : 'fresh');
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(BODY);
  });
}

describe('--trust-proxy 1: the last entry, the one the nearest proxy added', () => {
  let one: Running;
  beforeAll(async () => {
    one = await startTrusting(1);
  });
  afterAll(async () => {
    await stop(one);
  });

  it('is the client, through any of the proxies; what the client wrote before it is not', async () => {
    expect(await create(one, 'one-last', PROXY, '198.51.100.1')).toBe('fresh');
    expect(await create(one, 'one-last', OTHER_PROXY, '203.0.113.9, 198.51.100.1')).toBe('replayed');
    expect(await create(one, 'one-last', PROXY, '198.51.100.1,198.51.100.2')).toBe('fresh');
    expect(await create(one, 'one-last', OTHER_PROXY, ' 198.51.100.2 ')).toBe('replayed');
    expect(await create(one, 'one-last', PROXY, '198.51.100.1, 198.51.100.3')).toBe('fresh');
  });

  it('joins repeated X-Forwarded-For lines in order, as one list', async () => {
    expect(await create(one, 'one-lines', PROXY, ['203.0.113.9', '198.51.100.1'])).toBe('fresh');
    expect(await create(one, 'one-lines', OTHER_PROXY, '198.51.100.1')).toBe('replayed');
  });

  it("falls back to the socket's address without the header, or when the last entry is empty", async () => {
    expect(await create(one, 'one-peer', PROXY, undefined)).toBe('fresh');
    // The same address written by a proxy: the same client as the socket's peer.
    expect(await create(one, 'one-peer', OTHER_PROXY, PROXY)).toBe('replayed');
    expect(await create(one, 'one-peer', OTHER_PROXY, undefined)).toBe('fresh');
    expect(await create(one, 'one-empty', PROXY, '198.51.100.1, ')).toBe('fresh');
    expect(await create(one, 'one-empty', OTHER_PROXY, PROXY)).toBe('replayed');
  });

  it('keeps the first 100 characters of an entry', async () => {
    const long = 'a'.repeat(100);
    expect(await create(one, 'one-long', PROXY, `${long}b`)).toBe('fresh');
    expect(await create(one, 'one-long', OTHER_PROXY, `${long}c`)).toBe('replayed');
    expect(await create(one, 'one-long', OTHER_PROXY, long)).toBe('replayed');
    expect(await create(one, 'one-long', OTHER_PROXY, `${'a'.repeat(99)}bc`)).toBe('fresh');
  });
});

describe('--trust-proxy 2: the entry before the last', () => {
  let two: Running;
  beforeAll(async () => {
    two = await startTrusting(2);
  });
  afterAll(async () => {
    await stop(two);
  });

  it('is the client; a header of one entry gives that entry (the furthest any proxy saw)', async () => {
    expect(await create(two, 'two', PROXY, '203.0.113.9, 198.51.100.1, 10.0.0.1')).toBe('fresh');
    expect(await create(two, 'two', OTHER_PROXY, '198.51.100.1,10.0.0.2')).toBe('replayed');
    expect(await create(two, 'two', PROXY, '198.51.100.1')).toBe('replayed');
    expect(await create(two, 'two', PROXY, '10.0.0.1, 198.51.100.1')).toBe('fresh');
    expect(await create(two, 'two', OTHER_PROXY, undefined)).toBe('fresh');
    expect(await create(two, 'two', PROXY, `${OTHER_PROXY}, 10.0.0.1`)).toBe('replayed');
  });
});

describe('--trust-proxy 0 (the default): X-Forwarded-For is never read', () => {
  let none: Running;
  beforeAll(async () => {
    none = await startTrusting(0);
  });
  afterAll(async () => {
    await stop(none);
  });

  it("the socket's address is the client's, whatever the header says", async () => {
    expect(await create(none, 'none', PROXY, '198.51.100.1')).toBe('fresh');
    expect(await create(none, 'none', PROXY, '198.51.100.2')).toBe('replayed');
    expect(await create(none, 'none', OTHER_PROXY, '198.51.100.1')).toBe('fresh');
  });
});

describe('forwardedAddress', () => {
  it.each([
    [undefined, 1, '192.0.2.1'],
    [undefined, 3, '192.0.2.1'],
    ['198.51.100.1', 1, '198.51.100.1'],
    ['203.0.113.9, 198.51.100.1', 1, '198.51.100.1'],
    ['203.0.113.9, 198.51.100.1', 2, '203.0.113.9'],
    ['203.0.113.9,198.51.100.1,10.0.0.1', 2, '198.51.100.1'],
    ['203.0.113.9, 198.51.100.1, 10.0.0.1', 3, '203.0.113.9'],
    // Fewer entries than proxies: the first.
    ['198.51.100.1', 2, '198.51.100.1'],
    ['203.0.113.9, 198.51.100.1', 5, '203.0.113.9'],
    ['  2001:db8::1  ', 1, '2001:db8::1'],
    // An empty entry where the address should be: the socket's.
    ['', 1, '192.0.2.1'],
    ['198.51.100.1, ', 1, '192.0.2.1'],
    ['198.51.100.1,', 1, '192.0.2.1'],
    [', 198.51.100.1', 2, '192.0.2.1'],
    [`${'1'.repeat(100)}23`, 1, '1'.repeat(100)],
  ])('(%j, %i hops) is %j', (header, hops, address) => {
    expect(forwardedAddress(header, hops, '192.0.2.1')).toBe(address);
  });
});

describe('parseTrustProxy (SANDBOX_TRUST_PROXY, --trust-proxy)', () => {
  it.each([
    ['0', 0],
    ['1', 1],
    ['7', 7],
    ['99', 99],
    ['05', 5],
    [' 2 ', 2],
    ['\t3\n', 3],
  ])('%j is %i', (text, count) => {
    expect(parseTrustProxy(text, 'SANDBOX_TRUST_PROXY')).toBe(count);
  });

  const refusal = (name: string, shown: string) =>
    `${name} must be how many proxies of yours stand in front of the server, a whole number from 0 (none, the default: the socket's address) to 99, such as 1 behind one load balancer; received ${shown}.`;
  const TRUSTING_ALL =
    ' Trusting every entry would take whatever a client writes in X-Forwarded-For as its address: give the count of your own proxies.';

  it.each([
    ['100', '"100"'],
    ['123', '"123"'],
    ['-1', '"-1"'],
    ['1.5', '"1.5"'],
    ['x12', '"x12"'],
    ['12x', '"12x"'],
    ['', '""'],
    [' 100 ', '" 100 "'],
    ['one', '"one"'],
    ['onward', '"onward"'],
    ['untrue', '"untrue"'],
    ['noway', '"noway"'],
  ])('%j is refused, naming the variable and what was received', (text, shown) => {
    expect(parseTrustProxy(text, 'SANDBOX_TRUST_PROXY')).toBe(refusal('SANDBOX_TRUST_PROXY', shown));
  });

  it.each([
    ['true', '"true"'],
    ['yes', '"yes"'],
    ['on', '"on"'],
    ['all', '"all"'],
    ['TRUE', '"TRUE"'],
    [' Yes ', '" Yes "'],
  ])('%j (trust every entry) is refused, saying why', (text, shown) => {
    expect(parseTrustProxy(text, '--trust-proxy')).toBe(refusal('--trust-proxy', shown) + TRUSTING_ALL);
  });
});
