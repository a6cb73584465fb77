// The operator's log on Workers (docs/workers.md, "The operator's log"): one JSON line per request
// through console.log, read here by spying on console in the isolate the Worker runs in.
// test/workerd-http/workerd-http.test.ts reads the same lines from workerd's output.
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import worker from '../../src/worker.js';

/** The isolate's own setTimeout, kept before a test fakes it. */
const realSetTimeout = globalThis.setTimeout;

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** The lines the Worker logs, parsed, while the spy is on. */
function spyLines(): () => unknown[] {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  return () => log.mock.calls.map(([line]) => JSON.parse(String(line)));
}

async function send(path: string, headers: Record<string, string>, vars: Record<string, string>): Promise<Response> {
  const ctx = createExecutionContext();
  const request = new Request(`https://sandbox.example${path}`, {
    headers: { Authorization: 'Bearer svc_test_sandbox_public', ...headers },
  });
  const response = await worker.fetch(request as Parameters<typeof worker.fetch>[0], { ...env, ...vars }, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

describe("the operator's log on Workers", () => {
  it('ms is the time the answer waited: a held answer logs the milliseconds it was held', async () => {
    // The same request first, on the real timers: whatever its first run loads is loaded (the test
    // pool loads modules through timers of its own).
    expect((await send('/v1/jobs?limit=1', {}, { SANDBOX_RATE_LIMIT: 'off' })).status).toBe(200);
    // The timers and performance.now() of the isolate are the test's: the held answer's timer
    // fires when the test moves the clock, so the wait is exact.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    vi.advanceTimersByTime(1_000);
    const lines = spyLines();
    const answer = send('/v1/jobs?limit=1', { 'Sandbox-Simulate': 'delay=250' }, { SANDBOX_RATE_LIMIT: 'off' });
    // Until the answer is held (vi.waitFor would move the fake clock while it waits).
    while (vi.getTimerCount() === 0) await new Promise((resolve) => realSetTimeout(resolve, 1));
    await vi.advanceTimersByTimeAsync(250);
    const response = await answer;
    expect(response.status).toBe(200);
    expect(lines()).toEqual([
      { method: 'GET', path: '/v1/jobs?limit=1', status: 200, ms: 250, request_id: response.headers.get('Request-Id'), fault: 'delay=250' },
    ]);
  });

  it('a configuration that cannot be used logs its 500 as any other answer', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const lines = spyLines();
    const response = await send('/v1/jobs', {}, { SANDBOX_RATE_LIMIT: 'fast' });
    expect(response.status).toBe(500);
    expect(lines()).toEqual([
      { method: 'GET', path: '/v1/jobs', status: 500, ms: expect.any(Number), request_id: response.headers.get('Request-Id') },
    ]);
  });
});
