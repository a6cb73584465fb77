// Failures on demand on a real socket (issue #22): the built server (dist/cli.js) on loopback,
// delivering the events of writes to a loopback receiver. Each value: the answer as the wire
// carries it, the stored replay, the deliveries counted at the receiver, Sandbox-Fault, the
// bound on held answers and a client that disconnects while its answer is held.
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../../src/index.js';
import { CLI, type RunningServer, startCommand } from '../cli-server.js';
import { type Receiver, startReceiver } from '../events/receiver.js';

const KEY = 'svc_test_sandbox_public';
const SECRET = 'whsec_faults_socket_test';
const JOB_BODY = JSON.stringify({
  type: 'ci_pickup',
  client: 'cli_seII9pzPSgmmJJ',
  site: 'site_boDWBFERDT5aI9',
  scheduled_for: '2026-04-01',
  window: { start: '08:00', end: '12:00' },
});

let server: RunningServer;
let receiver: Receiver;

/**
 * `sh -c` that raises the open-file soft limit, then runs the command: holding a thousand answers
 * takes a thousand sockets on each side, past the soft limit of 1,024 many machines start
 * processes with (the hard limit, which an unprivileged process may raise it to, is higher).
 */
function withFileLimit(command: string, args: readonly string[]): [string, string[]] {
  return ['/bin/sh', ['-c', 'ulimit -n 4096 2>/dev/null || ulimit -n "$(ulimit -Hn)"; exec "$@"', 'sh', command, ...args]];
}

beforeAll(async () => {
  receiver = await startReceiver();
  server = await startCommand(
    ...withFileLimit(process.execPath, [
      CLI,
      '--port',
      '0',
      '--rate-limit',
      'off',
      '--webhook-url',
      receiver.url,
      '--webhook-secret',
      SECRET,
    ]),
  );
});

afterAll(async () => {
  server?.stop();
  await receiver?.close();
});

function port(): number {
  return Number(new URL(server.origin).port);
}

/** Sends a request on a raw socket; resolves with every byte received and how the socket ended. */
function raw(request: string): Promise<{ bytes: Buffer; error: string | undefined }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(port(), '127.0.0.1', () => socket.write(request));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.once('error', (error: NodeJS.ErrnoException) => resolve({ bytes: Buffer.concat(chunks), error: error.code }));
    socket.once('close', () => resolve({ bytes: Buffer.concat(chunks), error: undefined }));
  });
}

function post(headers: Record<string, string>, body = JOB_BODY): string {
  const lines = Object.entries({
    Host: '127.0.0.1',
    Authorization: `Bearer ${KEY}`,
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    ...headers,
  }).map(([name, value]) => `${name}: ${value}`);
  return `POST /v1/jobs HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}

function createJob(headers: Record<string, string>): Promise<Response> {
  return fetch(`${server.origin}/v1/jobs`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json', ...headers },
    body: JOB_BODY,
  });
}

/** The deliveries of job.created that arrived since `from`, once `count` of them did. */
async function jobsCreated(from: number, count: number): Promise<{ id: string; data: { object: { id: string } } }[]> {
  await receiver.waitFor(from + count);
  // A moment more, so a delivery too many would be seen.
  await new Promise((resolve) => setTimeout(resolve, 300));
  return receiver.deliveries.slice(from).map((delivery) => JSON.parse(delivery.body));
}

/** A short delayed read, asked again until it answers `status` (after 400 tries, undefined: the test fails). */
async function probeUntil(status: number): Promise<Response | undefined> {
  for (let tries = 0; tries < 400; tries++) {
    const probe = await fetch(`${server.origin}/v1/jobs?limit=1`, {
      headers: { Authorization: `Bearer ${KEY}`, 'Sandbox-Simulate': 'delay=1' },
    });
    if (probe.status === status) return probe;
    await probe.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}

describe('on the built server', () => {
  it('reset_after_write: the socket is reset before any byte of the answer; the write ran, its event was delivered, the retry with the key replays it', async () => {
    const from = receiver.deliveries.length;
    const lost = await raw(post({ 'Idempotency-Key': 'socket-reset-1', 'Sandbox-Simulate': 'reset_after_write' }));
    expect(lost.error).toBe('ECONNRESET');
    expect(lost.bytes.length).toBe(0);
    // fetch reads it as a network failure.
    const failure = await createJob({ 'Idempotency-Key': 'socket-reset-2', 'Sandbox-Simulate': 'reset_after_write' }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(TypeError);

    const retried = await createJob({ 'Idempotency-Key': 'socket-reset-1' });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('Idempotent-Replayed')).toBe('true');
    const job = (await retried.json()) as { id: string };
    const events = await jobsCreated(from, 2);
    expect(events).toHaveLength(2);
    expect(events.map((event) => event.data.object.id)).toContain(job.id);
  });

  it('api_error_after_write: 500 with Sandbox-Fault; one job.created; the replay is the job the event carried', async () => {
    const from = receiver.deliveries.length;
    const failed = await createJob({ 'Idempotency-Key': 'socket-500-1', 'Sandbox-Simulate': 'api_error_after_write' });
    expect(failed.status).toBe(500);
    expect(failed.headers.get('Sandbox-Fault')).toBe('api_error_after_write');
    expect(((await failed.json()) as { error: { code: string } }).error.code).toBe('api_error');
    const retried = await createJob({ 'Idempotency-Key': 'socket-500-1', 'Sandbox-Simulate': 'api_error_after_write' });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('Idempotent-Replayed')).toBe('true');
    const events = await jobsCreated(from, 1);
    expect(events).toHaveLength(1);
    expect(await retried.json()).toEqual(events[0]?.data.object);
  });

  it('a retry without a key books a second job: two job.created', async () => {
    const from = receiver.deliveries.length;
    expect((await createJob({ 'Sandbox-Simulate': 'api_error_after_write' })).status).toBe(500);
    expect((await createJob({})).status).toBe(201);
    const events = await jobsCreated(from, 2);
    expect(new Set(events.map((event) => event.data.object.id)).size).toBe(2);
  });

  it('duplicate_event: the receiver gets the event twice, the same bytes and ID, each signed', async () => {
    const from = receiver.deliveries.length;
    const created = await createJob({ 'Sandbox-Simulate': 'duplicate_event' });
    expect(created.status).toBe(201);
    expect(created.headers.get('Sandbox-Fault')).toBe('duplicate_event');
    await receiver.waitFor(from + 2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const deliveries = receiver.deliveries.slice(from);
    expect(deliveries).toHaveLength(2);
    expect(deliveries[1]?.body).toBe(deliveries[0]?.body);
    for (const delivery of deliveries) {
      expect(verifySignature(delivery.body, delivery.signature, SECRET)).toBe(true);
    }
  });

  it('delay: the write runs at once, its event arrives while the answer is held; a retry with the key gets the stored answer', async () => {
    const from = receiver.deliveries.length;
    const abort = new AbortController();
    const held = fetch(`${server.origin}/v1/jobs`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${KEY}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': 'socket-delay-1',
        'Sandbox-Simulate': 'delay=60000',
      },
      body: JOB_BODY,
      signal: abort.signal,
    }).catch((error: unknown) => error);
    const events = await jobsCreated(from, 1);
    expect(events).toHaveLength(1);
    const retried = await createJob({ 'Idempotency-Key': 'socket-delay-1' });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await retried.json()).toEqual(events[0]?.data.object);
    abort.abort();
    expect(await held).toBeInstanceOf(Error);
  });

  it('delay: a short one is answered late with Sandbox-Fault', async () => {
    const response = await fetch(`${server.origin}/v1/jobs?limit=1`, {
      headers: { Authorization: `Bearer ${KEY}`, 'Sandbox-Simulate': 'delay=50' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('Sandbox-Fault')).toBe('delay=50');
  });

  it('holds at most 1,000 answers: the 1,001st is 429 rate_limited with Retry-After: 1; a client that disconnects frees its place at once', async () => {
    // The thousand clients are another process, with its own raised open-file limit.
    const holder = spawn(...withFileLimit(process.execPath, ['test/faults/hold-connections.mjs', String(port()), '1000', KEY]), {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    holder.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const lines = createInterface({ input: holder.stdout })[Symbol.asyncIterator]();
    const nextLine = async (): Promise<string> => {
      const line = await lines.next();
      return line.done ? `exited: ${stderr}` : line.value;
    };
    try {
      expect(await nextLine()).toBe('held 1000');
      // The held requests reach the server in their own time: ask until a 1,001st is refused.
      const refused = await probeUntil(429);
      expect(refused?.status).toBe(429);
      expect(refused?.headers.get('Retry-After')).toBe('1');
      expect(((await (refused as Response).json()) as { error: { code: string } }).error.code).toBe('rate_limited');
      // Answers without a delay are not held, so not refused.
      expect((await fetch(`${server.origin}/v1/jobs?limit=1`, { headers: { Authorization: `Bearer ${KEY}` } })).status).toBe(200);

      // Ten clients give up: ten places are free at once.
      holder.stdin.write('drop 10\n');
      expect(await nextLine()).toBe('dropped 10');
      const accepted = await probeUntil(200);
      expect(accepted?.headers.get('Sandbox-Fault')).toBe('delay=1');
    } finally {
      holder.stdin.end();
      holder.kill();
    }
  }, 120_000);
});
