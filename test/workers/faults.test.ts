// Failures on demand in workerd (issue #22): the same values as on Node, through the Worker's own
// entry point with its Durable Object idempotency store. Workers cannot drop a client's connection,
// so reset_after_write sends the status line and headers, then errors the body. Deliveries are
// seen by spying on the Worker's outgoing fetch, as test/workers/events.test.ts does.
import { createExecutionContext, SELF, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import worker from '../../src/worker.js';
import DEFAULT_SEED_SEQUENCE from '../faults/default-seed-sequence.json';
import { uniqueKey } from './support/worker.js';

const URL = 'https://receiver.example/webhooks';
const SECRET = 'whsec_workersFaultsTestSecret';
const JOB_BODY = { type: 'ci_pickup', client: 'cli_seII9pzPSgmmJJ', site: 'site_boDWBFERDT5aI9' };
const VARS = { SANDBOX_RATE_LIMIT: 'off', SANDBOX_WEBHOOK_URL: URL, SANDBOX_WEBHOOK_SECRET: SECRET };

afterEach(() => {
  vi.restoreAllMocks();
});

/** Deliveries the Worker sends, answered 204 without the network. */
function spyDeliveries(): string[] {
  const sent: string[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
    sent.push(String(init?.body));
    return new Response(null, { status: 204 });
  });
  return sent;
}

/** One request to the Worker; waits for its after-answer work (deliveries) unless told not to. */
async function send(path: string, headers: Record<string, string>, body?: unknown, vars: Record<string, string> = VARS) {
  const ctx = createExecutionContext();
  const request = new Request(`https://sandbox.example${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { Authorization: 'Bearer svc_test_sandbox_public', 'Content-Type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const response = await worker.fetch(request as Parameters<typeof worker.fetch>[0], { ...env, ...vars }, ctx);
  return { response, settled: () => waitOnExecutionContext(ctx) };
}

describe('failures on demand on Workers', () => {
  it('api_error_after_write: the write runs and emits, the answer is a 500 with Sandbox-Fault; the retry with the key replays it', async () => {
    const sent = spyDeliveries();
    const key = uniqueKey('faults-500');
    const failed = await send('/v1/jobs', { 'Idempotency-Key': key, 'Sandbox-Simulate': 'api_error_after_write' }, JOB_BODY);
    expect(failed.response.status).toBe(500);
    expect(failed.response.headers.get('Sandbox-Fault')).toBe('api_error_after_write');
    expect(((await failed.response.json()) as { error: { code: string } }).error.code).toBe('api_error');
    await failed.settled();
    expect(sent).toHaveLength(1);
    const retried = await send('/v1/jobs', { 'Idempotency-Key': key }, JOB_BODY);
    expect(retried.response.status).toBe(201);
    expect(retried.response.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await retried.response.json()).toEqual(JSON.parse(sent[0] ?? '{}').data.object);
    await retried.settled();
    expect(sent).toHaveLength(1);
  });

  it('reset_after_write: the status line and headers go out, then reading the body fails; the write ran', async () => {
    const sent = spyDeliveries();
    const key = uniqueKey('faults-reset');
    const lost = await send('/v1/jobs', { 'Idempotency-Key': key, 'Sandbox-Simulate': 'reset_after_write' }, JOB_BODY);
    expect(lost.response.status).toBe(201);
    expect(lost.response.headers.get('Sandbox-Fault')).toBe('reset_after_write');
    await expect(lost.response.text()).rejects.toThrow();
    await lost.settled();
    expect(sent).toHaveLength(1);
    const retried = await send('/v1/jobs', { 'Idempotency-Key': key }, JOB_BODY);
    expect(retried.response.status).toBe(201);
    expect(retried.response.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await retried.response.json()).toEqual(JSON.parse(sent[0] ?? '{}').data.object);
  });

  it("reset_after_write through the runtime's own HTTP path (SELF): the head arrives, the body fails", async () => {
    const response = await SELF.fetch('https://sandbox.example/v1/clients', {
      method: 'POST',
      headers: {
        Authorization: 'Bearer svc_test_sandbox_public',
        'Content-Type': 'application/json',
        'Idempotency-Key': uniqueKey('faults-self-reset'),
        'Sandbox-Simulate': 'reset_after_write',
      },
      body: JSON.stringify({ name: 'Reset Co', kind: 'laboratory' }),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('Sandbox-Fault')).toBe('reset_after_write');
    await expect(response.text()).rejects.toThrow();
  });

  it('duplicate_event: the event is delivered twice, the same bytes', async () => {
    const sent = spyDeliveries();
    const created = await send('/v1/jobs', { 'Sandbox-Simulate': 'duplicate_event' }, JOB_BODY);
    expect(created.response.status).toBe(201);
    expect(created.response.headers.get('Sandbox-Fault')).toBe('duplicate_event');
    await created.response.text();
    await created.settled();
    expect(sent).toHaveLength(2);
    expect(sent[1]).toBe(sent[0]);
  });

  it('delay: the answer is held, says so, and its event is already out; a GET under an _after_write fault is a 500', async () => {
    const sent = spyDeliveries();
    const held = await send('/v1/jobs', { 'Sandbox-Simulate': 'delay=30' }, JOB_BODY);
    expect(held.response.status).toBe(201);
    expect(held.response.headers.get('Sandbox-Fault')).toBe('delay=30');
    await held.settled();
    expect(sent).toHaveLength(1);
    const read = await send('/v1/jobs?limit=1', { 'Sandbox-Simulate': 'api_error_after_write' });
    expect(read.response.status).toBe(500);
    expect(read.response.headers.get('Sandbox-Fault')).toBe('api_error_after_write');
  });

  it('holds at most 1,000 answers in an isolate: the next is a 429 before it runs; a client that disconnects frees its place', async () => {
    const abort = new AbortController();
    const request = (delay: number, signal?: AbortSignal) =>
      worker.fetch(
        new Request('https://sandbox.example/v1/jobs?limit=1', {
          headers: { Authorization: 'Bearer svc_test_sandbox_public', 'Sandbox-Simulate': `delay=${delay}` },
          ...(signal === undefined ? {} : { signal }),
        }) as Parameters<typeof worker.fetch>[0],
        { ...env, SANDBOX_RATE_LIMIT: 'off' },
        createExecutionContext(),
      );
    const held = Array.from({ length: 1_000 }, () => request(60_000, abort.signal));
    const refused = await request(1);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toBe('1');
    abort.abort();
    expect((await Promise.all(held)).map((response) => response.status)).toEqual(Array(1_000).fill(200));
    const accepted = await request(1);
    expect(accepted.status).toBe(200);
    expect(accepted.headers.get('Sandbox-Fault')).toBe('delay=1');
  });

  it('a value it cannot read is a 400 naming Sandbox-Simulate', async () => {
    const bad = await send('/v1/jobs?limit=1', { 'Sandbox-Simulate': 'api_eror' });
    expect(bad.response.status).toBe(400);
    const error = ((await bad.response.json()) as { error: { param: string; message: string } }).error;
    expect(error.param).toBe('Sandbox-Simulate');
    expect(error.message).toMatch(/Did you mean "api_error"\?/);
  });

  it('SANDBOX_FAULTS draws the same faults as on Node for the same sequence of requests', async () => {
    // test/faults/random.test.ts holds Node to the same outcomes. A fraction of 0 more makes this
    // configuration (and so its app and stream) this test's own in the isolate.
    const expected = DEFAULT_SEED_SEQUENCE.outcomes;
    const outcomes: string[] = [];
    for (let i = 0; i < expected.length; i++) {
      const { response } = await send('/v1/jobs?limit=1', {}, undefined, {
        SANDBOX_RATE_LIMIT: 'off',
        SANDBOX_FAULTS: `${DEFAULT_SEED_SEQUENCE.faults},duplicate_event=0`,
      });
      outcomes.push(`${response.status} ${response.headers.get('Sandbox-Fault') ?? '-'}`);
    }
    expect(outcomes).toEqual(expected);
  });

  it('SANDBOX_FAULTS works from the Worker variables', async () => {
    const always = await send('/v1/jobs?limit=1', {}, undefined, { SANDBOX_RATE_LIMIT: 'off', SANDBOX_FAULTS: 'api_error=1' });
    expect(always.response.status).toBe(500);
    expect(always.response.headers.get('Sandbox-Fault')).toBe('api_error');
  });
});

/** A job of the sample data in `closed`: a cancel is a 422 (docs/sample-data.md). */
const CLOSED_JOB = 'job_P7j8555WL2sdMX';
const BAD_JOB = { ...JOB_BODY, type: 'skip_hire' };

// SANDBOX.md, "Failures on demand": rate_limited and api_error fail before the request is read,
// whatever it holds; the _after_write faults and duplicate_event apply only to a write that
// succeeds, so the request's own error is the answer. The table of test/faults/precedence.test.ts.
describe('a fault on a request that fails on its own, on Workers', () => {
  const cases = [
    { fault: 'rate_limited', path: '/v1/jobs', body: BAD_JOB, status: 429, code: 'rate_limited', faultHeader: 'rate_limited' },
    { fault: 'api_error', path: '/v1/jobs', body: BAD_JOB, status: 500, code: 'api_error', faultHeader: 'api_error' },
    { fault: 'api_error_after_write', path: '/v1/jobs', body: BAD_JOB, status: 400, code: 'parameter_invalid', faultHeader: null },
    { fault: 'reset_after_write', path: `/v1/jobs/${CLOSED_JOB}/cancel`, body: {}, status: 422, code: 'state_invalid', faultHeader: null },
    { fault: 'duplicate_event', path: '/v1/jobs', body: BAD_JOB, status: 400, code: 'parameter_invalid', faultHeader: null },
  ];
  for (const { fault, path, body, status, code, faultHeader } of cases) {
    it(`${fault}: ${status} ${code}, nothing delivered`, async () => {
      const sent = spyDeliveries();
      const answer = await send(path, { 'Sandbox-Simulate': fault }, body);
      const text = await answer.response.text();
      expect(answer.response.status, text).toBe(status);
      expect((JSON.parse(text) as { error: { code: string } }).error.code).toBe(code);
      expect(answer.response.headers.get('Sandbox-Fault')).toBe(faultHeader);
      await answer.settled();
      expect(sent).toEqual([]);
    });
  }
});
