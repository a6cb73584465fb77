// Events from writes (issue #17; SANDBOX.md, "Events from writes"), through HTTP: the write goes to
// the sandbox, the event arrives at a receiver on a loopback port, signed as production signs.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runningMint } from '../../src/clock/mint.js';
import { createSandbox, type Sandbox, type SandboxOptions, verifySignature } from '../../src/index.js';
import { WebhookDispatcher } from '../../src/webhooks/dispatcher.js';
import { writeEvent } from '../../src/webhooks/write-events.js';
import { PINNED_TIME, SCRIPT, requestOf } from '../pinned-clock/script.js';
import { type Receiver, startReceiver } from './receiver.js';

const SECRET = 'whsec_eventsFromWritesTestSecret';
const DRAFT_JOB = 'job_EUcQtBQSE967gU';
const SCHEDULED_JOB = 'job_wR79b7gPQg1ViA';
const OPEN_CONTAINER = 'cont_cW8vawdtn51ye5';
const FULL_CONTAINER = 'cont_Q3sQ79EWy5DrOP';
const JOB_BODY = { type: 'ci_pickup', client: 'cli_seII9pzPSgmmJJ', site: 'site_boDWBFERDT5aI9' };

let receiver: Receiver;
beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(() => receiver.close());

function sandboxFor(options: SandboxOptions = {}): Sandbox {
  return createSandbox({ webhook: { url: receiver.url, secret: SECRET }, ...options });
}

async function send(
  sandbox: Sandbox,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  const init: RequestInit = { method, headers: { Authorization: 'Bearer svc_test_sandbox_public', ...headers } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
  }
  const response = await sandbox.fetch(new Request(`http://sandbox.test${path}`, init));
  return { status: response.status, text: await response.text() };
}

interface DeliveredEvent {
  id: string;
  object: string;
  type: string;
  data: { object: { id: string } };
  created_at: string;
}

/** The one delivery of a write: verified, the event's shape, data.object the answer's exact bytes. */
async function expectOneEvent(sandbox: Sandbox, answerText: string, type: string): Promise<DeliveredEvent> {
  await sandbox.deliveries();
  expect(receiver.deliveries).toHaveLength(1);
  const [delivery] = receiver.deliveries;
  if (delivery === undefined) throw new Error('no delivery');
  expect(verifySignature(delivery.body, delivery.signature, SECRET)).toBe(true);
  expect(delivery.contentType).toBe('application/json');
  const event = JSON.parse(delivery.body) as DeliveredEvent;
  expect(Object.keys(event)).toEqual(['id', 'object', 'type', 'data', 'created_at']);
  expect(event).toMatchObject({ object: 'event', type });
  expect(event.id).toMatch(/^evt_[0-9A-Za-z]{14}$/);
  expect(delivery.body).toContain(`"data":{"object":${answerText}}`);
  expect(event.data.object).toEqual(JSON.parse(answerText));
  return event;
}

describe('the three writes that emit', () => {
  it('POST /v1/jobs: job.created, created_at the write time', async () => {
    const sandbox = sandboxFor();
    const answer = await send(sandbox, 'POST', '/v1/jobs', JOB_BODY);
    expect(answer.status).toBe(201);
    const event = await expectOneEvent(sandbox, answer.text, 'job.created');
    expect(event.created_at).toBe(JSON.parse(answer.text).created_at);
  });

  it('PATCH /v1/jobs/{id} moving a draft to scheduled: job.scheduled', async () => {
    const sandbox = sandboxFor();
    const answer = await send(sandbox, 'PATCH', `/v1/jobs/${DRAFT_JOB}`, {
      scheduled_for: '2026-04-02',
      window: { start: '09:00', end: '11:00' },
    });
    expect(JSON.parse(answer.text).status).toBe('scheduled');
    await expectOneEvent(sandbox, answer.text, 'job.scheduled');
  });

  it('PATCH /v1/containers/{id} moving a container to received: container.received', async () => {
    const sandbox = sandboxFor();
    const answer = await send(sandbox, 'PATCH', `/v1/containers/${FULL_CONTAINER}`, { status: 'received' });
    expect(JSON.parse(answer.text).status).toBe('received');
    await expectOneEvent(sandbox, answer.text, 'container.received');
  });
});

describe('nothing else emits', () => {
  it('every other write of the script, every error and a simulated 500 send nothing', async () => {
    const sandbox = sandboxFor();
    // The writes that emit, and the failures on demand after a write that ran (which emits too).
    const emitting = new Set([
      'create job',
      'patch job (draft to scheduled)',
      'patch container (full to received)',
      'api_error_after_write',
      'delay and duplicate_event',
    ]);
    for (const step of SCRIPT.filter((step) => !emitting.has(step.name))) {
      await sandbox.fetch(requestOf('http://sandbox.test', step, false));
    }
    // A PATCH of a job that is already scheduled, a draft that stays a draft, a container to full.
    expect((await send(sandbox, 'PATCH', `/v1/jobs/${SCHEDULED_JOB}`, { metadata: { a: 'b' } })).status).toBe(200);
    expect((await send(sandbox, 'PATCH', `/v1/jobs/${DRAFT_JOB}`, { scheduled_for: '2026-04-02' })).status).toBe(200);
    expect((await send(sandbox, 'PATCH', `/v1/containers/${OPEN_CONTAINER}`, { status: 'full' })).status).toBe(200);
    // Errors of the emitting writes: 400, 404, 422, and a simulated 500.
    expect((await send(sandbox, 'POST', '/v1/jobs', { ...JOB_BODY, type: 'nope' })).status).toBe(400);
    expect((await send(sandbox, 'POST', '/v1/jobs', { ...JOB_BODY, client: 'cli_doesnotexist0000' })).status).toBe(404);
    expect((await send(sandbox, 'PATCH', `/v1/containers/${OPEN_CONTAINER}`, { status: 'received' })).status).toBe(422);
    expect((await send(sandbox, 'POST', '/v1/jobs', JOB_BODY, { 'Sandbox-Simulate': 'api_error' })).status).toBe(500);
    await sandbox.deliveries();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiver.deliveries).toEqual([]);
  });

  it('an idempotent replay emits nothing again', async () => {
    const sandbox = sandboxFor();
    const headers = { 'Idempotency-Key': 'events-replay-1' };
    const first = await send(sandbox, 'POST', '/v1/jobs', JOB_BODY, headers);
    const replay = await send(sandbox, 'POST', '/v1/jobs', JOB_BODY, headers);
    expect(replay.text).toBe(first.text);
    await expectOneEvent(sandbox, first.text, 'job.created');
  });

  it('a type left out by events is not sent', async () => {
    const sandbox = createSandbox({ webhook: { url: receiver.url, secret: SECRET, events: ['container.received'] } });
    expect((await send(sandbox, 'POST', '/v1/jobs', JOB_BODY)).status).toBe(201);
    const received = await send(sandbox, 'PATCH', `/v1/containers/${FULL_CONTAINER}`, { status: 'received' });
    await expectOneEvent(sandbox, received.text, 'container.received');
  });
});

describe('delivery', () => {
  it('a receiver that answers 500 and then 200 gets the retry, the same bytes signed again', async () => {
    receiver.answers.push(500);
    const sandbox = sandboxFor();
    await send(sandbox, 'POST', '/v1/jobs', JOB_BODY);
    const [first, second] = await receiver.waitFor(2);
    expect(second?.body).toBe(first?.body);
    expect(verifySignature(second?.body ?? '', second?.signature, SECRET)).toBe(true);
    await sandbox.deliveries();
    expect(receiver.deliveries).toHaveLength(2);
  });

  it('with a pinned clock the event ID is derived: the same write gives the same event twice', async () => {
    const bodies: string[] = [];
    for (let run = 0; run < 2; run++) {
      const sandbox = sandboxFor({ clock: PINNED_TIME });
      await send(sandbox, 'POST', '/v1/jobs', JOB_BODY);
      await sandbox.deliveries();
      bodies.push(receiver.deliveries[run]?.body ?? '');
    }
    expect(bodies[1]).toBe(bodies[0]);
    expect(JSON.parse(bodies[0] ?? '{}')).toMatchObject({ created_at: PINNED_TIME, type: 'job.created' });
    // The signature's t is the real time of the attempt: a pinned t would be refused as too old.
    expect(verifySignature(bodies[0] ?? '', receiver.deliveries[0]?.signature, SECRET)).toBe(true);
    // Another body, another job and so another event.
    const sandbox = sandboxFor({ clock: PINNED_TIME });
    await send(sandbox, 'POST', '/v1/jobs', { ...JOB_BODY, type: 'lab_pack' });
    await sandbox.deliveries();
    expect(JSON.parse(receiver.deliveries[2]?.body ?? '{}').id).not.toBe(JSON.parse(bodies[0] ?? '{}').id);
  });

  it('without a secret one is made, and it signs the deliveries', async () => {
    const sandbox = createSandbox({ webhook: { url: receiver.url } });
    expect(sandbox.webhook?.secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    await send(sandbox, 'POST', '/v1/jobs', JOB_BODY);
    const [delivery] = await receiver.waitFor(1);
    expect(verifySignature(delivery?.body ?? '', delivery?.signature, sandbox.webhook?.secret ?? '')).toBe(true);
  });

  it('in-process, onEvent is told the same event objects, with no receiver at all', async () => {
    const told: unknown[] = [];
    const sandbox = createSandbox({ onEvent: (event) => told.push(event) });
    const created = await send(sandbox, 'POST', '/v1/jobs', JOB_BODY);
    const received = await send(sandbox, 'PATCH', `/v1/containers/${FULL_CONTAINER}`, { status: 'received' });
    await send(sandbox, 'POST', '/v1/clients', { name: 'No event', kind: 'laboratory' });
    expect(told).toMatchObject([
      { object: 'event', type: 'job.created', data: { object: JSON.parse(created.text) } },
      { object: 'event', type: 'container.received', data: { object: JSON.parse(received.text) } },
    ]);
  });

  it('onEvent and the receiver get the same event', async () => {
    const told: unknown[] = [];
    const sandbox = sandboxFor({ onEvent: (event) => told.push(event) });
    await send(sandbox, 'POST', '/v1/jobs', JOB_BODY);
    const [delivery] = await receiver.waitFor(1);
    expect(told).toEqual([JSON.parse(delivery?.body ?? '')]);
  });

  it('bad options throw a TypeError naming the option', () => {
    expect(() => createSandbox({ webhook: { url: 'ftp://example.com' } })).toThrow(
      /^createSandbox\(\{ webhook: \{ url \} \}\) must be an absolute http:\/\/ or https:\/\/ URL/,
    );
    expect(() => createSandbox({ webhook: { url: receiver.url, secret: 'nope' } })).toThrow(
      /^createSandbox\(\{ webhook: \{ secret \} \}\) must be a signing secret beginning with whsec_/,
    );
    expect(() => createSandbox({ webhook: { url: receiver.url, events: [] } })).toThrow(/at least one event type/);
    expect(() => createSandbox({ webhook: { url: receiver.url, events: ['job.creatd' as never] } })).toThrow(
      /^createSandbox\(\{ webhook: \{ events \} \}\)\[0\] must be one of the types writes emit.*Did you mean "job.created"\?/,
    );
    expect(() => createSandbox({ webhook: { url: receiver.url, events: ['invoice.paid' as never] } })).toThrow(
      /types writes emit: job.created, job.scheduled, container.received/,
    );
    expect(() => createSandbox({ webhook: { url: receiver.url, secrt: SECRET } as never })).toThrow(
      /^createSandbox\(\{ webhook \}\): unknown field secrt\. Did you mean "secret"\?/,
    );
    expect(() => createSandbox({ webhook: { url: 'ftp://example.com' } })).toThrow(TypeError);
  });
});

describe('bounds', () => {
  it('a receiver that never answers cannot make the queue grow: the oldest waiting event is dropped, and said once', async () => {
    const { createServer } = await import('node:net');
    const silent = createServer(() => {}).listen(0, '127.0.0.1');
    await new Promise((resolve) => silent.once('listening', resolve));
    const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}/`;
    const warnings: string[] = [];
    const dispatcher = new WebhookDispatcher(
      { url, secret: SECRET, events: '*' },
      { maxInFlight: 2, maxQueued: 3, attempts: 1, timeoutMs: 300, warn: (message) => warnings.push(message) },
    );
    try {
      const mint = runningMint(() => new Date());
      const emitted = Array.from({ length: 20 }, () => dispatcher.emit(writeEvent(mint, 'job.created', '{"id":"job_x"}')));
      // Deliveries start on a later turn (never inside the write), so the 20 met a queue of 3.
      expect(dispatcher.pending).toBe(3);
      // 17 dropped; the first is said at once, the rest within 5 s only as a count.
      expect(warnings).toEqual([expect.stringMatching(/^webhook: dropped job\.created evt_\w+: 3 events already wait for /)]);
      // Every emit settles: a dropped event at once, a delivery once it gave up.
      await Promise.all(emitted);
      expect(dispatcher.pending).toBe(0);
      expect(warnings.filter((warning) => warning.includes('gave up'))).toHaveLength(3);
      expect(warnings.at(-1)).toMatch(/no answer within 0.3 s/);
    } finally {
      silent.close();
    }
  });
});

describe('the route table says which writes emit', () => {
  it('/openapi.json describes the three, and no other operation mentions an event it emits', async () => {
    const document = (await (await createSandbox().fetch(new Request('http://sandbox.test/openapi.json'))).json()) as {
      paths: Record<string, Record<string, { description: string }>>;
    };
    const emitting = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => operation.description.includes('Emits'))
        .map(([method, operation]) => `${method.toUpperCase()} ${path}: ${operation.description.match(/Emits `([\w.]+)`/)?.[1]}`),
    );
    expect(emitting.sort()).toEqual([
      'PATCH /v1/containers/{id}: container.received',
      'PATCH /v1/jobs/{id}: job.scheduled',
      'POST /v1/jobs: job.created',
    ]);
  });
});
