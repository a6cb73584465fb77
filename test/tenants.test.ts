// Strangers on a shared key (issue #35; SANDBOX.md, "Keys and accounts": "Shared keys" and "The
// client's address"; "Idempotency"; "Rate limits"). On the hosted copy everyone sends the public
// key, and the README's own Idempotency-Key, try-it-1: what the sandbox holds for a client (its
// Idempotency-Key results, its rate-limit bucket) belongs to the key and the client's address.
// Against the built server, three strangers are three source addresses on 127.0.0.0/8 (all of
// it routes to the loopback on Linux): the client socket is bound with localAddress.
import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../src/sandbox.js';
import { CLI, type RunningServer, startCli } from './cli-server.js';
import { PUBLIC_KEY, testApp } from './helpers.js';

const STRANGERS = ['127.0.0.2', '127.0.0.3', '127.0.0.4'] as const;
const [FIRST, SECOND, THIRD] = STRANGERS;
/** The README's try-it example: a webhook endpoint under Idempotency-Key try-it-1. */
const TRY_IT = { url: 'https://example.com/hooks', events: ['*'] };
const OTHER_BODY = { url: 'https://example.com/other-hooks', events: ['job.created'] };

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: { id?: string; secret?: string; error?: { code: string; message: string } };
}

interface Sent {
  from: string;
  key?: string;
  method?: string;
  path?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** One request over its own connection from the source address `from`. */
function send(origin: string, { from, key = PUBLIC_KEY, method = 'POST', path = '/v1/webhook_endpoints', body, headers = {} }: Sent) {
  const url = new URL(path, origin);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise<Answer>((resolve, reject) => {
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        localAddress: from,
        agent: false,
        headers: {
          Authorization: `Bearer ${key}`,
          ...(payload === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...headers,
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text, json: text === '' ? {} : JSON.parse(text) }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

/** A create of the try-it example (or another body) under try-it-1. */
function tryIt(origin: string, from: string, body: unknown = TRY_IT, extra: Partial<Sent> = {}): Promise<Answer> {
  return send(origin, { from, body, headers: { 'Idempotency-Key': 'try-it-1', ...extra.headers }, ...extra });
}

function expectFresh(answer: Answer, what: string): void {
  expect(answer.status, `${what}: ${answer.text}`).toBe(201);
  expect(answer.headers['idempotent-replayed'], what).toBeUndefined();
}

const servers: RunningServer[] = [];
async function start(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const server = await startCli(['--port', '0', ...args], env);
  servers.push(server);
  return server.origin;
}
afterAll(() => {
  for (const server of servers) server.stop();
});

describe('three strangers on the public key, each at their own address (Node server)', () => {
  let origin: string;
  beforeAll(async () => {
    origin = await start(['--rate-limit', 'off']);
  });

  it("never see each other's try-it-1: no replay, no 409; a retry from the same address replays", async () => {
    const first = await tryIt(origin, FIRST);
    expectFresh(first, 'the first stranger');
    // Another body under the same key from another address: a new request, not a conflict.
    const second = await tryIt(origin, SECOND, OTHER_BODY);
    expectFresh(second, 'the second stranger, another body');
    // The same body from a third address: its own endpoint and secret, not the first one's.
    const third = await tryIt(origin, THIRD);
    expectFresh(third, 'the third stranger, the same body');
    expect(third.json.id).not.toBe(first.json.id);
    expect(third.json.secret).toMatch(/^whsec_/);
    expect(third.json.secret).not.toBe(first.json.secret);

    // Each one's retry replays their own answer, byte for byte.
    for (const [from, body, answer] of [
      [FIRST, TRY_IT, first],
      [SECOND, OTHER_BODY, second],
      [THIRD, TRY_IT, third],
    ] as const) {
      const retry = await tryIt(origin, from, body);
      expect(retry.status, retry.text).toBe(201);
      expect(retry.headers['idempotent-replayed'], from).toBe('true');
      expect(retry.text).toBe(answer.text);
    }
    // And a conflict is still a conflict for the one who made it.
    const conflict = await tryIt(origin, FIRST, OTHER_BODY);
    expect(conflict.status, conflict.text).toBe(409);
    expect(conflict.json.error?.code).toBe('idempotency_conflict');
  });

  it("the address never changes an answer's bytes: a pinned answer is the same from any address", async () => {
    const pinned = { 'Idempotency-Key': 'pinned-1', 'Sandbox-Clock': '2026-03-02T17:00:00Z' };
    const answers = await Promise.all(STRANGERS.map((from) => send(origin, { from, body: TRY_IT, headers: pinned })));
    for (const answer of answers) expectFresh(answer, 'a pinned create');
    expect(answers.map((answer) => answer.text)).toEqual(STRANGERS.map(() => answers[0]?.text));
    expect(answers.map((answer) => answer.headers['request-id'])).toEqual(STRANGERS.map(() => answers[0]?.headers['request-id']));
  });

  it('each address has its own rate-limit bucket on a shared key', async () => {
    const limited = await start(['--rate-limit', '1']);
    const get = (from: string) => send(limited, { from, method: 'GET', path: '/v1/jobs?limit=1' });
    // The first stranger spends their bucket (one request a second: a few requests in a row do).
    let spent: Answer | undefined;
    for (let tries = 0; tries < 20 && spent === undefined; tries++) {
      const answer = await get(FIRST);
      if (answer.status === 429) spent = answer;
    }
    expect(spent?.json.error?.code).toBe('rate_limited');
    // The others' buckets are full.
    for (const from of [SECOND, THIRD]) {
      const answer = await get(from);
      expect(answer.status, `${from}: ${answer.text}`).toBe(200);
    }
  });
});

describe("a self-hoster's own key (Node server)", () => {
  const TEAM_KEY = 'svc_test_team_ci';
  const SHARED_KEY = 'svc_test_team_workshop';
  let origin: string;
  beforeAll(async () => {
    const table = [
      { key: TEAM_KEY, account: 'A', scopes: '*' },
      { key: SHARED_KEY, account: 'A', scopes: '*', shared: true },
    ];
    origin = await start(['--rate-limit', 'off', '--keys', JSON.stringify(table)]);
  });

  it('keeps its Idempotency-Keys across addresses: a CI job retried on another runner replays, another body is a 409', async () => {
    const first = await tryIt(origin, FIRST, TRY_IT, { key: TEAM_KEY });
    expectFresh(first, 'the first runner');
    const retry = await tryIt(origin, SECOND, TRY_IT, { key: TEAM_KEY });
    expect(retry.status, retry.text).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.text).toBe(first.text);
    const conflict = await tryIt(origin, THIRD, OTHER_BODY, { key: TEAM_KEY });
    expect(conflict.status, conflict.text).toBe(409);
    expect(conflict.json.error?.code).toBe('idempotency_conflict');
  });

  it('an entry with "shared": true keeps them per address, as the public keys do', async () => {
    const first = await tryIt(origin, FIRST, TRY_IT, { key: SHARED_KEY });
    expectFresh(first, 'the first workshop attendee');
    expectFresh(await tryIt(origin, SECOND, TRY_IT, { key: SHARED_KEY }), 'another attendee, the same body');
    expectFresh(await tryIt(origin, THIRD, OTHER_BODY, { key: SHARED_KEY }), 'another attendee, another body');
    const retry = await tryIt(origin, FIRST, TRY_IT, { key: SHARED_KEY });
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.text).toBe(first.text);
  });

  it('a "shared" that is not true or false stops the server at start, naming the entry and the field', async () => {
    const table = JSON.stringify([{ key: TEAM_KEY, account: 'A', scopes: '*', shared: 'yes' }]);
    const result = await exitOf(['--keys', table]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--keys is not a valid key table: entry \[0\]: shared must be true .* or false .*; received "yes"\./);
  });
});

describe('behind proxies: --trust-proxy / SANDBOX_TRUST_PROXY (Node server)', () => {
  const forwarded = (from: string, chain: string, body: unknown = TRY_IT) =>
    tryIt(trusting, from, body, { headers: { 'Idempotency-Key': 'try-it-1', 'X-Forwarded-For': chain } });
  let trusting: string;
  beforeAll(async () => {
    trusting = await start(['--rate-limit', 'off', '--trust-proxy', '1']);
  });

  it("off by default: X-Forwarded-For is ignored, the socket's address counts", async () => {
    const origin = await start(['--rate-limit', 'off']);
    const first = await tryIt(origin, FIRST, TRY_IT, { headers: { 'Idempotency-Key': 'try-it-1', 'X-Forwarded-For': '198.51.100.1' } });
    expectFresh(first, 'the first request');
    // Another X-Forwarded-For from the same socket address: the same client, so a replay.
    const named = await tryIt(origin, FIRST, TRY_IT, { headers: { 'Idempotency-Key': 'try-it-1', 'X-Forwarded-For': '198.51.100.2' } });
    expect(named.headers['idempotent-replayed']).toBe('true');
    // The same X-Forwarded-For from another socket address: another client.
    const other = await tryIt(origin, SECOND, TRY_IT, { headers: { 'Idempotency-Key': 'try-it-1', 'X-Forwarded-For': '198.51.100.1' } });
    expectFresh(other, 'another socket address naming the same X-Forwarded-For');
  });

  it('n = 1: the last entry, the one the nearest proxy added, is the client, whatever the socket', async () => {
    // Both reach the server through the one proxy (one socket address); the proxy names each client.
    const first = await forwarded(FIRST, '198.51.100.1');
    expectFresh(first, 'the first client behind the proxy');
    expectFresh(await forwarded(FIRST, '198.51.100.2', OTHER_BODY), 'another client behind the same proxy');
    // The same client through another of the operator's proxies (another socket address): a replay.
    const retry = await forwarded(SECOND, '198.51.100.1');
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.text).toBe(first.text);
    // What a client wrote before the proxy's entry is never believed: it cannot take another's place.
    expectFresh(await forwarded(FIRST, '198.51.100.1, 198.51.100.3'), 'a client naming another address before its own');
  });

  it('n hops back; a missing header falls back to the socket, a short one to its first entry', async () => {
    const two = await start(['--rate-limit', 'off'], { ...process.env, SANDBOX_TRUST_PROXY: '2' });
    const at = (from: string, chain: string | undefined, body: unknown = TRY_IT) =>
      tryIt(two, from, body, { headers: { 'Idempotency-Key': 'try-it-1', ...(chain === undefined ? {} : { 'X-Forwarded-For': chain }) } });
    // Two proxies: "client, first proxy's peer" … the entry two back from the end is the client.
    const first = await at(FIRST, '203.0.113.9, 198.51.100.1, 10.0.0.1');
    expectFresh(first, 'client 198.51.100.1 through two proxies');
    expect((await at(SECOND, '198.51.100.1, 10.0.0.2')).headers['idempotent-replayed']).toBe('true');
    // A short header (one entry for two proxies): its first entry, the furthest address known.
    expect((await at(THIRD, '198.51.100.1')).headers['idempotent-replayed']).toBe('true');
    // No header at all: the socket's address, another client.
    expectFresh(await at(FIRST, undefined), 'no X-Forwarded-For: the socket address');
    expect((await at(FIRST, undefined)).headers['idempotent-replayed']).toBe('true');
  });

  it.each([
    [
      ['--trust-proxy', 'yes'],
      {},
      /^--trust-proxy must be how many proxies of yours stand in front of the server, a whole number from 0 .* to 99, such as 1 behind one load balancer; received "yes"\. Trusting every entry/m,
    ],
    [[], { SANDBOX_TRUST_PROXY: '-1' }, /^SANDBOX_TRUST_PROXY must be how many proxies .*; received "-1"\.$/m],
    [['--trust-proxy', '1.5'], {}, /^--trust-proxy must be .*received "1\.5"\.$/m],
  ])('a bad value (%j %j) stops the server at start with exit 2, naming the flag or variable', async (args, env, message) => {
    const result = await exitOf(args, env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});

/** The exit code and error output of a server that must not start. */
async function exitOf(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stderr: string }> {
  return promisify(execFile)(process.execPath, [CLI, '--port', '0', ...args], { env: { ...process.env, ...env }, timeout: 20_000 }).then(
    () => ({ code: 0, stderr: '' }),
    (error: { code: number; stderr: string }) => error,
  );
}

describe('in-process: createSandbox({ clientAddress })', () => {
  const create = (sandbox: ReturnType<typeof createSandbox>, from: string | undefined, body: unknown = TRY_IT, key = PUBLIC_KEY) =>
    sandbox.fetch(
      new Request('http://sandbox.test/v1/webhook_endpoints', {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${key}`,
          'Content-Type': 'application/json',
          'Idempotency-Key': 'try-it-1',
          ...(from === undefined ? {} : { 'X-Test-Client': from }),
        },
        body: JSON.stringify(body),
      }),
    );

  it('a function of the request names each client: strangers apart, a retry from the same one replays', async () => {
    const sandbox = createSandbox({ clientAddress: (request) => request.headers.get('X-Test-Client') ?? 'nobody' });
    const first = await create(sandbox, FIRST);
    expect(first.status).toBe(201);
    const firstText = await first.text();
    const second = await create(sandbox, SECOND, OTHER_BODY);
    expect(second.status, await second.clone().text()).toBe(201);
    expect(second.headers.get('Idempotent-Replayed')).toBeNull();
    const third = await create(sandbox, THIRD);
    expect(third.headers.get('Idempotent-Replayed')).toBeNull();
    expect(await third.text()).not.toBe(firstText);
    const retry = await create(sandbox, FIRST);
    expect(retry.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await retry.text()).toBe(firstText);
  });

  it('each client has its own rate-limit bucket on a shared key', async () => {
    const sandbox = createSandbox({ rateLimit: 1, clientAddress: (request) => request.headers.get('X-Test-Client') ?? 'nobody' });
    const get = (from: string) =>
      sandbox.fetch(
        new Request('http://sandbox.test/v1/jobs?limit=1', { headers: { Authorization: `Bearer ${PUBLIC_KEY}`, 'X-Test-Client': from } }),
      );
    let spent = false;
    for (let tries = 0; tries < 20 && !spent; tries++) spent = (await get(FIRST)).status === 429;
    expect(spent).toBe(true);
    expect((await get(SECOND)).status).toBe(200);
  });

  it('without it, one fixed address: every request is the same client, so a second create replays', async () => {
    const sandbox = createSandbox();
    const first = await create(sandbox, FIRST);
    const again = await create(sandbox, SECOND);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await again.text()).toBe(await first.text());
    // Text names one address for every request, as a server would have it from its socket.
    const fixed = createSandbox({ clientAddress: '203.0.113.7' });
    await create(fixed, FIRST);
    expect((await create(fixed, SECOND)).headers.get('Idempotent-Replayed')).toBe('true');
  });

  it('a self-hoster\'s key replays from any address; a "shared": true entry does not', async () => {
    const sandbox = createSandbox({
      keys: [
        { key: 'svc_test_team_ci', account: 'A', scopes: '*' },
        { key: 'svc_test_team_workshop', account: 'A', scopes: '*', shared: true },
      ],
      clientAddress: (request) => request.headers.get('X-Test-Client') ?? 'nobody',
    });
    await create(sandbox, FIRST, TRY_IT, 'svc_test_team_ci');
    expect((await create(sandbox, SECOND, TRY_IT, 'svc_test_team_ci')).headers.get('Idempotent-Replayed')).toBe('true');
    expect((await create(sandbox, THIRD, OTHER_BODY, 'svc_test_team_ci')).status).toBe(409);
    await create(sandbox, FIRST, TRY_IT, 'svc_test_team_workshop');
    const other = await create(sandbox, SECOND, OTHER_BODY, 'svc_test_team_workshop');
    expect(other.status).toBe(201);
    expect(other.headers.get('Idempotent-Replayed')).toBeNull();
  });

  it('refuses a clientAddress that is neither text nor a function, naming the option', () => {
    expect(() => createSandbox({ clientAddress: 7 as never })).toThrow(
      /^createSandbox\(\{ clientAddress \}\) must be the client's address as text, such as "203\.0\.113\.7", or a function of the request that returns it; received 7\.$/,
    );
    expect(() => createSandbox({ clientAddress: '' })).toThrow(TypeError);
  });
});

describe('/docs says what a stranger can and cannot see', () => {
  it("on the public key: the same sample data, nobody else's writes, Idempotency-Keys and rate limit per address", async () => {
    const page = await (await testApp().request('/docs')).text();
    expect(page).toContain('This key is shared by everyone who reads these docs.');
    expect(page).toContain('kept per key and client address');
    const conflict = await (await testApp().request('/docs/errors')).text();
    expect(conflict).toMatch(
      /id="idempotency_conflict"[\s\S]*kept per key and client address: the request in conflict came from your own address/,
    );
  });

  it("not under a self-hoster's own key, which one holder uses", async () => {
    const team = testApp({ SANDBOX_KEYS: JSON.stringify([{ key: 'svc_test_team_ci', account: 'A', scopes: '*' }]) });
    expect(await (await team.request('/docs')).text()).not.toContain('This key is shared');
  });
});
