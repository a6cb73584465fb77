// Failures on demand in-process (issue #22; docs/testing-retries.md): each value of
// Sandbox-Simulate through createSandbox().fetch, the public in-process API, with the events a
// write emits counted by onEvent. Expected values are the contract's, written here.
import { describe, expect, it } from 'vitest';
import { createSandbox, type SandboxEvent } from '../../src/index.js';

const KEY = 'svc_test_sandbox_public';
const READONLY_KEY = 'svc_test_sandbox_readonly';
// Sample records (docs/sample-data.md): a client and one of its sites, a full container, a closed job.
const JOB_BODY = {
  type: 'ci_pickup',
  client: 'cli_seII9pzPSgmmJJ',
  site: 'site_boDWBFERDT5aI9',
  scheduled_for: '2026-04-01',
  window: { start: '08:00', end: '12:00' },
};
const FULL_CONTAINER = 'cont_Q3sQ79EWy5DrOP';
const CLOSED_JOB = 'job_P7j8555WL2sdMX';
const PINNED = '2026-03-02T17:00:00Z';

interface Sent {
  method?: string;
  body?: unknown;
  key?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

function sandboxWithEvents(options: Parameters<typeof createSandbox>[0] = {}) {
  const events: SandboxEvent[] = [];
  const sandbox = createSandbox({ ...options, onEvent: (event) => events.push(event) });
  const send = (path: string, sent: Sent = {}) => {
    const headers: Record<string, string> = { Authorization: `Bearer ${sent.key ?? KEY}`, ...sent.headers };
    if (sent.body !== undefined) headers['Content-Type'] = 'application/json';
    return sandbox.fetch(
      new Request(`http://sandbox.test${path}`, {
        method: sent.method ?? (sent.body === undefined ? 'GET' : 'POST'),
        headers,
        ...(sent.body === undefined ? {} : { body: JSON.stringify(sent.body) }),
        ...(sent.signal === undefined ? {} : { signal: sent.signal }),
      }),
    );
  };
  return { sandbox, events, send };
}

async function errorOf(response: Response) {
  const body = (await response.json()) as { error: { type: string; code: string; message: string; param?: string; request_id: string } };
  return body.error;
}

describe('api_error_after_write', () => {
  it('runs the write (stored under its key, its event emitted), then answers 500; the retry with the key replays the stored answer and emits nothing', async () => {
    const { sandbox, events, send } = sandboxWithEvents();
    const headers = { 'Idempotency-Key': 'after-write-1', 'Sandbox-Simulate': 'api_error_after_write' };
    const failed = await send('/v1/jobs', { body: JOB_BODY, headers });
    expect(failed.status).toBe(500);
    expect(failed.headers.get('Sandbox-Fault')).toBe('api_error_after_write');
    expect(failed.headers.get('Idempotent-Replayed')).toBeNull();
    const error = await errorOf(failed);
    expect(error).toMatchObject({ type: 'api_error', code: 'api_error', request_id: failed.headers.get('Request-Id') });
    expect(error.message).toMatch(/after the write/);
    expect(error.message).toMatch(/same Idempotency-Key/);
    // The write ran: its job.created was emitted, carrying the job the lost answer held.
    expect(events.map((event) => event.type)).toEqual(['job.created']);

    // The retry, with the header still on as a client's retry would send it, and without it.
    for (const retryHeaders of [headers, { 'Idempotency-Key': 'after-write-1' }]) {
      const retried = await send('/v1/jobs', { body: JOB_BODY, headers: retryHeaders });
      expect(retried.status).toBe(201);
      expect(retried.headers.get('Idempotent-Replayed')).toBe('true');
      expect(retried.headers.get('Sandbox-Fault')).toBeNull();
      expect(await retried.json()).toEqual(events[0]?.data.object);
    }
    // Delivered once: only duplicate_event delivers an event twice.
    await sandbox.deliveries(5_000);
    expect(events).toHaveLength(1);
  });

  it('a retry without a key runs the write again: a second job, a second job.created', async () => {
    const { events, send } = sandboxWithEvents();
    expect((await send('/v1/jobs', { body: JOB_BODY, headers: { 'Sandbox-Simulate': 'api_error_after_write' } })).status).toBe(500);
    const again = await send('/v1/jobs', { body: JOB_BODY });
    expect(again.status).toBe(201);
    const job = (await again.json()) as { id: string };
    expect(events.map((event) => event.type)).toEqual(['job.created', 'job.created']);
    expect(events[0]?.data.object.id).not.toBe(job.id);
    expect(events[1]?.data.object.id).toBe(job.id);
  });

  it('says so when the request had no Idempotency-Key', async () => {
    const { send } = sandboxWithEvents();
    const failed = await send('/v1/clients', {
      body: { name: 'Fault Test Co', kind: 'commercial_industrial' },
      headers: { 'Sandbox-Simulate': 'api_error_after_write' },
    });
    expect(failed.status).toBe(500);
    // A write that emits no event: the fault is in effect all the same.
    expect(failed.headers.get('Sandbox-Fault')).toBe('api_error_after_write');
    expect((await errorOf(failed)).message).toMatch(/no Idempotency-Key/);
  });

  it('with the clock pinned, the 500 and the replay are the same bytes on every run', async () => {
    const runs: string[][] = [];
    for (let run = 0; run < 2; run++) {
      const { send } = sandboxWithEvents();
      const headers = { 'Idempotency-Key': 'pinned-1', 'Sandbox-Clock': PINNED };
      const failed = await send('/v1/jobs', { body: JOB_BODY, headers: { ...headers, 'Sandbox-Simulate': 'api_error_after_write' } });
      const replay = await send('/v1/jobs', { body: JOB_BODY, headers });
      runs.push([
        String(failed.status),
        failed.headers.get('Request-Id') ?? '',
        await failed.text(),
        String(replay.status),
        await replay.text(),
      ]);
    }
    expect(runs[0]?.[0]).toBe('500');
    expect(runs[0]?.[3]).toBe('201');
    expect(runs[1]).toEqual(runs[0]);
  });
});

describe('reset_after_write', () => {
  it('in-process fetch rejects with a TypeError, as on a network failure; the write ran and the retry with the key replays it', async () => {
    const { events, send } = sandboxWithEvents();
    const headers = { 'Idempotency-Key': 'reset-1', 'Sandbox-Simulate': 'reset_after_write' };
    const lost = await send('/v1/jobs', { body: JOB_BODY, headers }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(lost).toBeInstanceOf(TypeError);
    // `TypeError: fetch failed`, caused by the reset (docs/testing-retries.md), as undici says it.
    expect((lost as TypeError).message).toBe('fetch failed');
    const cause = (lost as TypeError & { cause?: { code?: string; message?: string } }).cause;
    expect(cause?.code).toBe('ECONNRESET');
    expect(cause?.message).toMatch(/ECONNRESET/);
    expect(events).toHaveLength(1);
    const retried = await send('/v1/jobs', { body: JOB_BODY, headers });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await retried.json()).toEqual(events[0]?.data.object);
    expect(events).toHaveLength(1);
  });
});

describe('duplicate_event', () => {
  it('answers normally and emits each event twice, the same bytes and ID, about a second apart', async () => {
    const { sandbox, events, send } = sandboxWithEvents();
    const created = await send('/v1/jobs', { body: JOB_BODY, headers: { 'Sandbox-Simulate': 'duplicate_event' } });
    expect(created.status).toBe(201);
    expect(created.headers.get('Sandbox-Fault')).toBe('duplicate_event');
    const job = await created.json();
    expect(events).toHaveLength(1);
    await sandbox.deliveries(5_000);
    expect(events).toHaveLength(2);
    expect(events[1]).toEqual(events[0]);
    expect(events[0]?.data.object).toEqual(job);
  });

  it('doubles a PATCH that receives a container; changes nothing where no event is emitted (a client, a GET)', async () => {
    const { sandbox, events, send } = sandboxWithEvents();
    const received = await send(`/v1/containers/${FULL_CONTAINER}`, {
      method: 'PATCH',
      body: { status: 'received' },
      headers: { 'Sandbox-Simulate': 'duplicate_event' },
    });
    expect(received.status).toBe(200);
    const client = await send('/v1/clients', {
      body: { name: 'Dup Co', kind: 'commercial_industrial' },
      headers: { 'Sandbox-Simulate': 'duplicate_event' },
    });
    expect(client.status).toBe(201);
    expect(client.headers.get('Sandbox-Fault')).toBeNull();
    const read = await send('/v1/jobs?limit=1', { headers: { 'Sandbox-Simulate': 'duplicate_event' } });
    expect(read.status).toBe(200);
    expect(read.headers.get('Sandbox-Fault')).toBeNull();
    await sandbox.deliveries(5_000);
    expect(events.map((event) => event.type)).toEqual(['container.received', 'container.received']);
  });
});

describe('delay', () => {
  it('runs the write at once (its event emitted before the answer), then holds the answer; a retry with the key meanwhile gets the stored answer', async () => {
    const { events, send } = sandboxWithEvents();
    const abort = new AbortController();
    const held = send('/v1/jobs', {
      body: JOB_BODY,
      headers: { 'Idempotency-Key': 'delay-1', 'Sandbox-Simulate': 'delay=60000' },
      signal: abort.signal,
    });
    let answered = false;
    void held.then(() => {
      answered = true;
    });
    // The write ran while its answer is held: the event is out, and the key's answer is stored.
    for (let tries = 0; tries < 100 && events.length === 0; tries++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(events.map((event) => event.type)).toEqual(['job.created']);
    const retried = await send('/v1/jobs', { body: JOB_BODY, headers: { 'Idempotency-Key': 'delay-1' } });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await retried.json()).toEqual(events[0]?.data.object);
    expect(answered).toBe(false);
    // The client gives up: its place is freed and the held answer ends.
    abort.abort();
    const answer = await held;
    expect(answer.status).toBe(201);
    expect(answer.headers.get('Sandbox-Fault')).toBe('delay=60000');
    expect(events).toHaveLength(1);
  });

  it('applies to whatever is answered: an error of the request, a replay, a fault; the items echo as sent', async () => {
    const { send } = sandboxWithEvents();
    const invalid = await send('/v1/jobs', { body: {}, headers: { 'Sandbox-Simulate': 'delay=20' } });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('Sandbox-Fault')).toBe('delay=20');
    const both = await send('/v1/jobs', { body: JOB_BODY, headers: { 'Sandbox-Simulate': ' api_error_after_write ,delay=5 ' } });
    expect(both.status).toBe(500);
    expect(both.headers.get('Sandbox-Fault')).toBe('api_error_after_write, delay=5');
    const limited = await send('/v1/jobs', { headers: { 'Sandbox-Simulate': 'delay=0, rate_limited' } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('Retry-After')).toBe('1');
    expect(limited.headers.get('Sandbox-Fault')).toBe('delay=0, rate_limited');
  });

  it('holds at most 1,000 answers at once: the next is 429 rate_limited with Retry-After: 1 before it runs; a client that disconnects frees its place', async () => {
    const { events, send } = sandboxWithEvents();
    const abort = new AbortController();
    const held = Array.from({ length: 1_000 }, () =>
      send('/v1/jobs?limit=1', { headers: { 'Sandbox-Simulate': 'delay=60000' }, signal: abort.signal }),
    );
    const refused = await send('/v1/jobs', { body: JOB_BODY, headers: { 'Sandbox-Simulate': 'delay=10' } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toBe('1');
    const error = await errorOf(refused);
    expect(error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });
    expect(error.message).toMatch(/1,000/);
    // Refused before it ran: no job was created.
    expect(events).toHaveLength(0);
    // Answers without a delay are not held and not refused, with a fault or without.
    expect((await send('/v1/jobs?limit=1')).status).toBe(200);
    const failed = await send('/v1/jobs?limit=1', { headers: { 'Sandbox-Simulate': 'api_error' } });
    expect(failed.status).toBe(500);
    expect(failed.headers.get('Sandbox-Fault')).toBe('api_error');
    abort.abort();
    expect((await Promise.all(held)).every((response) => response.status === 200)).toBe(true);
    const accepted = await send('/v1/jobs', { body: JOB_BODY, headers: { 'Sandbox-Simulate': 'delay=10' } });
    expect(accepted.status).toBe(201);
  });
});

describe('a request that fails on its own', () => {
  it('answers its own error, with no fault, nothing stored and nothing emitted (400, 403, 404, 409, 422)', async () => {
    const { events, send } = sandboxWithEvents();
    for (const fault of ['api_error_after_write', 'reset_after_write', 'duplicate_event']) {
      const cases: [Promise<Response>, number][] = [
        [send('/v1/jobs', { body: { ...JOB_BODY, type: 'pickup' }, headers: { 'Sandbox-Simulate': fault } }), 400],
        [send('/v1/jobs', { body: JOB_BODY, key: READONLY_KEY, headers: { 'Sandbox-Simulate': fault } }), 403],
        [send('/v1/jobs', { body: { ...JOB_BODY, client: 'cli_doesnotexist00' }, headers: { 'Sandbox-Simulate': fault } }), 404],
        [send(`/v1/jobs/${CLOSED_JOB}/cancel`, { body: {}, headers: { 'Sandbox-Simulate': fault } }), 422],
      ];
      for (const [answer, status] of cases) {
        const response = await answer;
        expect(response.status, `${fault} → ${status}`).toBe(status);
        expect(response.headers.get('Sandbox-Fault')).toBeNull();
      }
      // 409: the key was used for another body.
      const key = `conflict-${fault}`;
      expect((await send('/v1/jobs', { body: { ...JOB_BODY, type: 'lab_pack' }, headers: { 'Idempotency-Key': key } })).status).toBe(201);
      const conflict = await send('/v1/jobs', { body: JOB_BODY, headers: { 'Idempotency-Key': key, 'Sandbox-Simulate': fault } });
      expect(conflict.status).toBe(409);
      expect(conflict.headers.get('Sandbox-Fault')).toBeNull();
    }
    // Only the three creates that set up the conflicts emitted.
    expect(events).toHaveLength(3);
  });

  it('on a GET, the _after_write faults act as api_error: 500 at once, saying so', async () => {
    const { send } = sandboxWithEvents();
    for (const fault of ['api_error_after_write', 'reset_after_write']) {
      const response = await send('/v1/jobs?limit=1', { headers: { 'Sandbox-Simulate': fault } });
      expect(response.status).toBe(500);
      expect(response.headers.get('Sandbox-Fault')).toBe(fault);
      const error = await errorOf(response);
      expect(error.code).toBe('api_error');
      expect(error.message).toMatch(/writes nothing/);
    }
  });

  it('on a HEAD too, which writes nothing: 500 at once with Sandbox-Fault', async () => {
    const { send } = sandboxWithEvents();
    for (const fault of ['api_error_after_write', 'reset_after_write']) {
      const response = await send('/v1/jobs?limit=1', { method: 'HEAD', headers: { 'Sandbox-Simulate': fault } });
      expect(response.status).toBe(500);
      expect(response.headers.get('Sandbox-Fault')).toBe(fault);
    }
  });

  it('the key is checked first: 401 without a fault', async () => {
    const sandbox = createSandbox();
    const response = await sandbox.fetch(new Request('http://sandbox.test/v1/jobs', { headers: { 'Sandbox-Simulate': 'api_error' } }));
    expect(response.status).toBe(401);
    expect(response.headers.get('Sandbox-Fault')).toBeNull();
  });
});

describe('rate_limited and api_error stay as they were: before anything runs', () => {
  it('api_error on a create emits nothing and stores nothing: the retry with the same key runs', async () => {
    const { events, send } = sandboxWithEvents();
    const failed = await send('/v1/jobs', { body: JOB_BODY, headers: { 'Idempotency-Key': 'pre-1', 'Sandbox-Simulate': 'api_error' } });
    expect(failed.status).toBe(500);
    expect(failed.headers.get('Sandbox-Fault')).toBe('api_error');
    expect(events).toHaveLength(0);
    const retried = await send('/v1/jobs', { body: JOB_BODY, headers: { 'Idempotency-Key': 'pre-1' } });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('Idempotent-Replayed')).toBeNull();
    expect(events).toHaveLength(1);
  });

  it('the message names the header as its items are read: whitespace around the value left out', async () => {
    const { send } = sandboxWithEvents();
    // A no-break space: fetch keeps it in the value (only spaces and tabs are dropped), the items drop it.
    const failed = await send('/v1/jobs?limit=1', { headers: { 'Sandbox-Simulate': '\u00a0api_error\u00a0' } });
    expect(failed.status).toBe(500);
    expect(failed.headers.get('Sandbox-Fault')).toBe('api_error');
    expect((await errorOf(failed)).message).toContain('(Sandbox-Simulate: api_error)');
  });

  it('rate_limited answers 429 with Retry-After and the header', async () => {
    const { send } = sandboxWithEvents();
    const limited = await send('/v1/jobs', { body: JOB_BODY, headers: { 'Sandbox-Simulate': 'rate_limited' } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('Retry-After')).toBe('1');
    expect(limited.headers.get('Sandbox-Fault')).toBe('rate_limited');
  });
});

describe('a value the sandbox cannot read', () => {
  const values: [string, RegExp][] = [
    ['meteor', /unknown item "meteor"/],
    ['api_eror', /Did you mean "api_error"\?/],
    ['reset_after_wirte', /Did you mean "reset_after_write"\?/],
    // Nothing close to suggest: the message ends with the reason.
    ['api_error, rate_limited', /two faults \(api_error, rate_limited\); send one at a time\.$/],
    ['delay=10, delay=20', /two delays; send one\.$/],
    ['delay=60001', /0 to 60000/],
    ['delay=-1', /0 to 60000/],
    ['delay=soon', /not "soon"/],
    ['delay=1.5', /not "1.5"/],
    ['api_error,', /empty item/],
    ['', /empty item/],
    ['delay:<ms>', /Did you mean "delay=<ms>"\?/],
    // An item is a delay only when it begins with delay=.
    ['predelay=10', /unknown item "predelay=10"/],
  ];
  for (const [value, detail] of values) {
    it(`${JSON.stringify(value)}: 400 parameter_invalid naming Sandbox-Simulate, listing the values`, async () => {
      const { events, send } = sandboxWithEvents();
      const response = await send('/v1/jobs', { body: JOB_BODY, headers: { 'Sandbox-Simulate': value } });
      expect(response.status).toBe(400);
      const error = await errorOf(response);
      expect(error).toMatchObject({ type: 'invalid_request_error', code: 'parameter_invalid', param: 'Sandbox-Simulate' });
      for (const listed of ['rate_limited', 'api_error', 'api_error_after_write', 'reset_after_write', 'duplicate_event', 'delay=<ms>'])
        expect(error.message).toContain(listed);
      expect(error.message).toMatch(detail);
      expect(events).toHaveLength(0);
    });
  }
});

describe('browsers', () => {
  it('may send Sandbox-Simulate and read Sandbox-Fault', async () => {
    const sandbox = createSandbox();
    const preflight = await sandbox.fetch(
      new Request('http://sandbox.test/v1/jobs', {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://docs.example',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'sandbox-simulate',
        },
      }),
    );
    expect(preflight.headers.get('Access-Control-Allow-Headers')).toMatch(/\bSandbox-Simulate\b/);
    const failed = await sandbox.fetch(
      new Request('http://sandbox.test/v1/jobs', {
        headers: { Origin: 'https://docs.example', Authorization: `Bearer ${KEY}`, 'Sandbox-Simulate': 'api_error' },
      }),
    );
    expect(failed.headers.get('Access-Control-Expose-Headers')?.split(', ')).toContain('Sandbox-Fault');
  });
});

describe('the OpenAPI document', () => {
  it('lists every value of Sandbox-Simulate and documents Sandbox-Fault', async () => {
    const document = (await (await createSandbox().fetch(new Request('http://sandbox.test/openapi.json'))).json()) as {
      components: {
        parameters: Record<string, { description: string; schema: { pattern: string }; 'x-sandbox-values': string[] }>;
        headers: Record<string, { description: string }>;
      };
      paths: Record<string, Record<string, { parameters?: { $ref?: string }[]; responses: Record<string, { headers?: object }> }>>;
    };
    const parameter = document.components.parameters['Sandbox-Simulate'];
    const values = ['rate_limited', 'api_error', 'api_error_after_write', 'reset_after_write', 'duplicate_event'];
    for (const value of [...values, 'delay=<ms>']) expect(parameter?.description).toContain(`\`${value}\``);
    expect(parameter?.['x-sandbox-values']).toEqual(expect.arrayContaining(values));
    const pattern = new RegExp(parameter?.schema.pattern ?? '$^');
    for (const value of [...values, 'delay=2500', 'delay=2500, api_error_after_write', 'reset_after_write,delay=0'])
      expect(value).toMatch(pattern);
    for (const value of ['meteor', 'api_error, rate_limited, delay=1', 'delay=soon']) expect(value).not.toMatch(pattern);
    expect(document.components.headers['Sandbox-Fault']?.description).toMatch(/items in effect/);
    const createJob = document.paths['/v1/jobs']?.post;
    expect(createJob?.parameters).toContainEqual({ $ref: '#/components/parameters/Sandbox-Simulate' });
    expect(createJob?.responses['201']?.headers).toHaveProperty('Sandbox-Fault');
    expect(createJob?.responses['500']?.headers).toHaveProperty('Sandbox-Fault');
  });
});
