// createSandbox's own options and methods (src/sandbox.ts): the client's address (SANDBOX.md,
// "The client's address": text, or a function of the request; else one fixed address), and
// sandbox.deliveries(timeoutMs), which "resolves once every delivery of the events emitted so far
// has ended (or after timeoutMs)": the second event of duplicate_event, told to onEvent about a
// second after the first, and deliveries to a webhook receiver. Nothing to wait for: it resolves
// at once, before the event loop turns; something to wait for: it waits for it, or gives up at its
// time-out.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { createSandbox, type SandboxEvent } from '../../src/index.js';

const KEY = 'svc_test_sandbox_public';
const JOB_BODY = JSON.stringify({ type: 'ci_pickup', client: 'cli_seII9pzPSgmmJJ', site: 'site_boDWBFERDT5aI9' });

type Sandbox = ReturnType<typeof createSandbox>;

function send(sandbox: Sandbox, path: string, headers: Record<string, string> = {}, body?: string): Promise<Response> {
  return sandbox.fetch(
    new Request(`https://sandbox.test${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { Authorization: `Bearer ${KEY}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body }),
    }),
  );
}

/** Creates a job; its ID, and whether it was a replay. */
async function createJob(sandbox: Sandbox, headers: Record<string, string>): Promise<{ id: string; replayed: boolean }> {
  const answer = await send(sandbox, '/v1/jobs', headers, JOB_BODY);
  expect(answer.status).toBe(201);
  return { id: ((await answer.json()) as { id: string }).id, replayed: answer.headers.get('Idempotent-Replayed') === 'true' };
}

/** Whether the promise settles before the event loop's next turn (a setImmediate). */
function beforeNextTurn(promise: Promise<unknown>): Promise<boolean> {
  return Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setImmediate(() => resolve(false)))]);
}

/** Whether the promise settles within `turns` turns of the microtask queue. */
async function withinTurns(promise: Promise<unknown>, turns: number): Promise<boolean> {
  let settled = false;
  void promise.then(() => {
    settled = true;
  });
  for (let turn = 0; turn < turns && !settled; turn++) await Promise.resolve();
  return settled;
}

function problem(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    expect((error as Error).name).toBe('ConfigError');
    return (error as Error).message;
  }
  throw new Error('the options were accepted');
}

describe('clientAddress', () => {
  it.each([
    ['blank text', ' ', '" "'],
    ['empty text', '', 'an empty string'],
    ['a number', 203, '203'],
    ['null', null, 'null'],
  ])('%s is refused, naming the option', (_case, address, received) => {
    expect(problem(() => createSandbox({ clientAddress: address as never }))).toBe(
      `createSandbox({ clientAddress }) must be the client's address as text, such as "203.0.113.7", or a function of the request that returns it; received ${received}.`,
    );
  });

  it('text is the address of every request', async () => {
    const sandbox = createSandbox({ clientAddress: '203.0.113.7', rateLimit: 2 });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await send(sandbox, '/v1/jobs?limit=1')).status);
    expect(statuses).toEqual([200, 200, 429]);
  });

  it('a function is asked for each request: a rate-limit bucket and Idempotency-Keys (on a shared key) per address', async () => {
    const sandbox = createSandbox({ rateLimit: 1, clientAddress: (request) => request.headers.get('X-Client') ?? 'nobody' });
    expect((await send(sandbox, '/v1/jobs?limit=1', { 'X-Client': '203.0.113.7' })).status).toBe(200);
    expect((await send(sandbox, '/v1/jobs?limit=1', { 'X-Client': '203.0.113.7' })).status).toBe(429);
    expect((await send(sandbox, '/v1/jobs?limit=1', { 'X-Client': '203.0.113.8' })).status).toBe(200);

    const unlimited = createSandbox({ clientAddress: (request) => request.headers.get('X-Client') ?? 'nobody' });
    const first = await createJob(unlimited, { 'Idempotency-Key': 'try-it-1', 'X-Client': '203.0.113.7' });
    const again = await createJob(unlimited, { 'Idempotency-Key': 'try-it-1', 'X-Client': '203.0.113.7' });
    const stranger = await createJob(unlimited, { 'Idempotency-Key': 'try-it-1', 'X-Client': '203.0.113.8' });
    expect(again).toEqual({ id: first.id, replayed: true });
    expect(stranger.replayed).toBe(false);
    expect(stranger.id).not.toBe(first.id);
  });

  it('a key that is not shared keeps its Idempotency-Keys whatever the address', async () => {
    const sandbox = createSandbox({
      keys: [{ key: KEY, account: 'A', scopes: '*' }],
      clientAddress: (request) => request.headers.get('X-Client') ?? 'nobody',
    });
    const first = await createJob(sandbox, { 'Idempotency-Key': 'ci-run-7', 'X-Client': '203.0.113.7' });
    expect(await createJob(sandbox, { 'Idempotency-Key': 'ci-run-7', 'X-Client': '198.51.100.1' })).toEqual({
      id: first.id,
      replayed: true,
    });
  });

  it('without one, every request comes from the same address', async () => {
    const sandbox = createSandbox();
    const first = await createJob(sandbox, { 'Idempotency-Key': 'fixed-address' });
    expect(await createJob(sandbox, { 'Idempotency-Key': 'fixed-address' })).toEqual({ id: first.id, replayed: true });
  });
});

describe('deliveries()', () => {
  it('with neither onEvent nor a webhook, nothing is kept for later, even under duplicate_event', async () => {
    const sandbox = createSandbox();
    await createJob(sandbox, { 'Sandbox-Simulate': 'duplicate_event' });
    expect(await beforeNextTurn(sandbox.deliveries())).toBe(true);
  });

  it("waits for duplicate_event's second event, or gives up at its time-out", async () => {
    // Timers and Date faked: the second event is due about 1 s after the write (SANDBOX.md), and
    // only the time the test moves on passes, however slow the machine.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const told: SandboxEvent[] = [];
    const sandbox = createSandbox({ onEvent: (event) => told.push(event) });
    await createJob(sandbox, { 'Sandbox-Simulate': 'duplicate_event' });
    expect(told.map((event) => event.type)).toEqual(['job.created']);

    // A time-out of 0 waits for nothing, while no time passes.
    expect(await beforeNextTurn(sandbox.deliveries(0))).toBe(true);
    expect(told).toHaveLength(1);

    // A short time-out gives up before the second event, quietly (no warning of the process).
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      // What was told when deliveries() resolved, read the moment it resolves.
      let toldWhenGivenUp: number | undefined;
      void sandbox.deliveries(50).then(() => {
        toldWhenGivenUp = told.length;
      });
      await vi.advanceTimersByTimeAsync(50);
      await new Promise((resolve) => setImmediate(resolve));
      expect(toldWhenGivenUp).toBe(1);
    } finally {
      process.off('warning', onWarning);
    }
    expect(told).toHaveLength(1);
    expect(warnings).toEqual([]);

    // A longer one waits for the second: the same event again.
    const waitingLonger = sandbox.deliveries(5_000).then(() => told.length);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await waitingLonger).toBe(2);
    expect(told[1]).toEqual(told[0]);

    // Then there is nothing left to wait for.
    expect(await withinTurns(sandbox.deliveries(1_000), 100)).toBe(true);
  });

  it('waits on real timers without a warning of the process (no time-out Node must cut short)', async () => {
    const sandbox = createSandbox({ onEvent: () => {} });
    await createJob(sandbox, { 'Sandbox-Simulate': 'duplicate_event' });
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      await sandbox.deliveries(20);
      // A warning is emitted on a later turn than the timer that caused it.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).toEqual([]);
    await sandbox.deliveries();
  });

  it('gives up at its time-out on a delivery the receiver has not answered, and waits for it without one', async () => {
    const held: ServerResponse[] = [];
    const bodies: string[] = [];
    let arrived: () => void = () => {};
    const arrival = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        bodies.push(body);
        held.push(response);
        arrived();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    let released = false;
    const release = () => {
      released = true;
      for (const response of held.splice(0)) response.writeHead(204).end();
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const sandbox = createSandbox({
        webhook: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`, secret: 'whsec_receiver_test' },
      });
      await createJob(sandbox, {});
      await arrival;
      const first = await Promise.race([
        sandbox.deliveries(50).then(() => 'gave up'),
        new Promise<string>((resolve) => {
          timer = setTimeout(() => resolve('still waiting 2 s on'), 2_000);
        }),
      ]);
      expect(first).toBe('gave up');
      expect(held).toHaveLength(1);
      // Without a time-out it waits until the receiver answers: it resolves only after release.
      const whole = sandbox.deliveries().then(() => released);
      await new Promise((resolve) => setImmediate(resolve));
      release();
      expect(await whole).toBe(true);
      expect(bodies.map((body) => (JSON.parse(body) as SandboxEvent).type)).toEqual(['job.created']);
    } finally {
      clearTimeout(timer);
      release();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});
