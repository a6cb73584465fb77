// Signed webhook deliveries on demand (issue #7, item 4): `trigger` against a real receiver on
// loopback, which checks every delivery with the package's verifySignature and with a plain
// node:crypto reading of the reference's rule written here, independently of src/.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../src/cli/main.js';
import { createSandbox } from '../src/index.js';
import { EVENT_TYPES } from './reference/resources.js';
import { signPayload, verifySignature } from '../src/webhooks/signature.js';
import { call, testApp } from './helpers.js';

const SECRET = 'whsec_test_receiver_0123456789';
const app = testApp();

/** The reference's rule, read independently: HMAC-SHA256 of "<t>.<raw body>", hex, within 300 s. */
function referenceVerify(body: Buffer, header: string, secret: string, now = Math.floor(Date.now() / 1000)): boolean {
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=') as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || t > now || now - t >= 300 || typeof parts.v1 !== 'string') return false;
  const expected = createHmac('sha256', secret).update(`${t}.`).update(body).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

interface Delivery {
  body: Buffer;
  headers: IncomingHttpHeaders;
}

/** A receiver on loopback that records deliveries and answers from a script (default: 200). */
class Receiver {
  readonly deliveries: Delivery[] = [];
  /** One entry per request in turn: a status, or 'hang' to answer nothing. */
  script: (number | 'hang')[] = [];
  #server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        this.deliveries.push({ body: Buffer.concat(chunks), headers: request.headers });
        const next = this.script.shift() ?? 200;
        if (next === 'hang') return;
        response.writeHead(next).end();
      });
    });
    this.#server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  }

  reset(): void {
    this.deliveries.length = 0;
    this.script = [];
  }

  async stop(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()));
  }
}

const receiver = new Receiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.stop());
afterEach(() => receiver.reset());

/** Runs the command line in-process, as the bin does, capturing what it prints. */
async function run(...argv: string[]): Promise<{ code: number | undefined; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...args) => void out.push(args.join(' ')));
  const error = vi.spyOn(console, 'error').mockImplementation((...args) => void err.push(args.join(' ')));
  try {
    return { code: await main(argv), out: out.join('\n'), err: err.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

const FAST = ['--backoff', '0.01'];

describe('trigger', () => {
  it('--all delivers one event of each of the twelve types, each body byte for byte GET /v1/events/{id}, signed', async () => {
    const { code, out } = await run('trigger', '--all', '--url', receiver.url, '--secret', SECRET);
    expect(code, out).toBe(0);
    expect(receiver.deliveries).toHaveLength(12);
    const types = new Set<string>();
    for (const delivery of receiver.deliveries) {
      const event = JSON.parse(delivery.body.toString('utf8'));
      types.add(event.type);
      expect(delivery.headers['content-type']).toBe('application/json');
      const header = delivery.headers['service-signature'] as string;
      expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(verifySignature(delivery.body, header, SECRET)).toBe(true);
      expect(referenceVerify(delivery.body, header, SECRET)).toBe(true);
      const fetched = await call(app, `/v1/events/${event.id}`);
      expect(delivery.body.toString('utf8')).toBe(fetched.text);
    }
    expect([...types].sort()).toEqual([...EVENT_TYPES].sort());
    expect(out).toMatch(/12 of 12 events delivered in \d+\.\d\d s/);
  });

  it('without --secret makes a whsec_ secret, prints it, and signs with it', async () => {
    const { code, out } = await run('trigger', 'invoice.paid', '--url', receiver.url);
    expect(code).toBe(0);
    const secret = out.match(/Signing secret: (whsec_[0-9A-Za-z]{32})/)?.[1] as string;
    expect(secret).toBeDefined();
    const [delivery] = receiver.deliveries as [Delivery];
    expect(JSON.parse(delivery.body.toString()).type).toBe('invoice.paid');
    expect(referenceVerify(delivery.body, delivery.headers['service-signature'] as string, secret)).toBe(true);
    expect(referenceVerify(delivery.body, delivery.headers['service-signature'] as string, SECRET)).toBe(false);
  });

  it('--event sends that event of the sample data, and --seed picks the data', async () => {
    const event = (await call(app, '/v1/events?type=job.closed&limit=1')).json.data[0];
    expect((await run('trigger', '--event', event.id, '--url', receiver.url, '--secret', SECRET)).code).toBe(0);
    expect(JSON.parse((receiver.deliveries[0] as Delivery).body.toString()).id).toBe(event.id);

    const other = testApp({ SANDBOX_SEED: 'another-seed' });
    const seeded = (await call(other, '/v1/events?type=job.closed&limit=1')).json.data[0];
    expect((await run('trigger', 'job.closed', '--seed', 'another-seed', '--url', receiver.url, '--secret', SECRET)).code).toBe(0);
    expect((receiver.deliveries[1] as Delivery).body.toString()).toBe((await call(other, `/v1/events/${seeded.id}`)).text);
  });

  it('retries a receiver that fails first, with growing gaps, and prints every attempt', async () => {
    receiver.script = [500, 503];
    const { code, out } = await run('trigger', 'job.created', '--url', receiver.url, '--secret', SECRET, ...FAST);
    expect(code, out).toBe(0);
    expect(receiver.deliveries).toHaveLength(3);
    expect(out).toMatch(/attempt 1: 500 in \d+ ms\n {2}attempt 2: 503 in \d+ ms\n {2}attempt 3: 200 in \d+ ms \(delivered\)/);
    // Each attempt is signed afresh, and each signature holds.
    for (const delivery of receiver.deliveries)
      expect(verifySignature(delivery.body, delivery.headers['service-signature'] as string, SECRET)).toBe(true);
  });

  it('retries after no answer within --timeout', async () => {
    receiver.script = ['hang'];
    const { code, out } = await run('trigger', 'job.created', '--url', receiver.url, '--secret', SECRET, '--timeout', '0.2', ...FAST);
    expect(code, out).toBe(0);
    expect(out).toMatch(/attempt 1: no answer within 0.2 s/);
    expect(out).toMatch(/attempt 2: 200/);
  });

  it('exits 1 when an event is not delivered after --attempts tries (refused connections)', async () => {
    const closed = new Receiver();
    await closed.start();
    await closed.stop();
    const { code, out } = await run('trigger', 'job.created', '--url', closed.url, '--attempts', '2', ...FAST);
    expect(code).toBe(1);
    expect(out.match(/connection refused/g)).toHaveLength(2);
    expect(out).toMatch(/not delivered after 2 attempts\n0 of 1 event delivered/);
  });

  it('exits 1 when the receiver keeps refusing with a status', async () => {
    receiver.script = [400, 400, 400];
    const { code } = await run('trigger', 'job.created', '--url', receiver.url, '--attempts', '3', ...FAST);
    expect(code).toBe(1);
    expect(receiver.deliveries).toHaveLength(3);
  });

  it.each([
    [['trigger', '--url', 'http://127.0.0.1:9/'], /exactly one of/],
    [['trigger', 'job.created'], /--url is required/],
    [['trigger', 'job.create', '--url', 'http://127.0.0.1:9/'], /Unknown event type "job.create". Did you mean "job.created"\?/],
    [['trigger', 'job.created', '--all', '--url', 'http://127.0.0.1:9/'], /exactly one of/],
    [['trigger', 'job.created', '--url', 'ftp://example.com'], /http or https/],
    [['trigger', 'job.created', '--url', 'not a url'], /absolute http or https URL/],
    [['trigger', 'job.created', '--url', 'http://127.0.0.1:9/', '--secret', 'abc'], /whsec_/],
    [['trigger', 'job.created', '--url', 'http://127.0.0.1:9/', '--timeout', '0'], /--timeout/],
    [['trigger', 'job.created', '--url', 'http://127.0.0.1:9/', '--attempts', '2.5'], /--attempts/],
    [['trigger', '--event', 'evt_doesnotexist', '--url', 'http://127.0.0.1:9/'], /No event "evt_doesnotexist"/],
    [['trigger', 'job.created', '--url', 'http://127.0.0.1:9/', '--colour'], /Unknown option '--colour'/],
    [['deliver'], /Unknown command "deliver"/],
  ])('%j is a usage error: exit code 2 and a clear message', async (argv, message) => {
    const { code, err } = await run(...argv);
    expect(code).toBe(2);
    expect(err).toMatch(message);
    expect(receiver.deliveries).toHaveLength(0);
  });
});

describe('signPayload and verifySignature', () => {
  const body = '{"id":"evt_1","object":"event"}';
  const now = 1_780_000_000;

  it('sign as the reference says, checked by the plain implementation', () => {
    const header = signPayload(body, SECRET, now);
    const expected = createHmac('sha256', SECRET).update(`${now}.${body}`).digest('hex');
    expect(header).toBe(`t=${now},v1=${expected}`);
    expect(referenceVerify(Buffer.from(body), header, SECRET, now)).toBe(true);
    expect(verifySignature(Buffer.from(body), header, SECRET, { now })).toBe(true);
  });

  it('reject a tampered body, a wrong secret, and a malformed header', () => {
    const header = signPayload(body, SECRET, now);
    expect(verifySignature(body.replace('evt_1', 'evt_2'), header, SECRET, { now })).toBe(false);
    expect(verifySignature(body, header, 'whsec_other', { now })).toBe(false);
    for (const bad of ['', 'v1=abc', `t=${now}`, `t=${now},v1=${'0'.repeat(63)}`, `t=x,v1=${'0'.repeat(64)}`]) {
      expect(verifySignature(body, bad, SECRET, { now })).toBe(false);
    }
    expect(verifySignature(body, null, SECRET, { now })).toBe(false);
  });

  it('accept up to 299 seconds old; reject 300 seconds or more old, and the future', () => {
    expect(verifySignature(body, signPayload(body, SECRET, now - 299), SECRET, { now })).toBe(true);
    expect(verifySignature(body, signPayload(body, SECRET, now - 300), SECRET, { now })).toBe(false);
    expect(verifySignature(body, signPayload(body, SECRET, now + 1), SECRET, { now })).toBe(false);
    expect(verifySignature(body, signPayload(body, SECRET, now), SECRET, { now: new Date(now * 1000) })).toBe(true);
  });

  it('accept any one matching v1 of several, as during a secret rotation', () => {
    const good = signPayload(body, SECRET, now).split(',')[1];
    const other = signPayload(body, 'whsec_old', now).split(',')[1];
    expect(verifySignature(body, `t=${now},${other},${good}`, SECRET, { now })).toBe(true);
    expect(verifySignature(body, `t=${now},${other}`, SECRET, { now })).toBe(false);
  });
});

describe('retries of the events of writes', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('wait 1 s before the second attempt, and twice as long before each next one', async () => {
    const sandbox = createSandbox({ webhook: { url: 'http://127.0.0.1:9/hook', secret: SECRET } });
    const site = (await (await sandbox.fetch(request('/v1/sites?limit=1'))).json()).data[0];
    // Time moves only when the test says: the gaps are measured on the fake clock, not the machine's.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const start = Date.now();
    const attempts: number[] = [];
    const answers = [500, 503, 500, 502, 200];
    vi.stubGlobal('fetch', async () => {
      attempts.push(Date.now() - start);
      return new Response(null, { status: answers.shift() ?? 200 });
    });
    const created = await sandbox.fetch(
      request('/v1/jobs', { method: 'POST', body: JSON.stringify({ type: 'ci_pickup', client: site.client, site: site.id }) }),
    );
    expect(created.status).toBe(201);
    await vi.advanceTimersByTimeAsync(0);
    expect(attempts).toEqual([0]);
    // Just before each gap ends, nothing new; at its end, the next attempt.
    for (const [gap, count] of [
      [1000, 2],
      [2000, 3],
      [4000, 4],
      [8000, 5],
    ] as const) {
      await vi.advanceTimersByTimeAsync(gap - 1);
      expect(attempts, `before the gap of ${gap} ms ends`).toHaveLength(count - 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(attempts, `when the gap of ${gap} ms ends`).toHaveLength(count);
    }
    expect(attempts).toEqual([0, 1000, 3000, 7000, 15000]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(attempts, 'delivered at the fifth: no more attempts').toHaveLength(5);
  });
});

function request(path: string, init: RequestInit = {}): Request {
  return new Request(`http://sandbox.test${path}`, {
    ...init,
    headers: { Authorization: 'Bearer svc_test_sandbox_public', 'Content-Type': 'application/json' },
  });
}
