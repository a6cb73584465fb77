// Answers held by `delay`, with the clock stopped (fake timers, Date included): a held answer waits
// on its timer alone, so an answer that must not be held comes without the clock moving, and the
// bound of 1,000 held answers (docs/testing-retries.md) is read at the instants that matter. A
// place also lapses on its own at its deadline, the delay and a second of slack (the rule of
// src/faults/held-answers.ts: on Workers a request whose client went away may never resume).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSandbox } from '../../src/index.js';

const KEY = 'svc_test_sandbox_public';
const JOB_BODY = JSON.stringify({ type: 'ci_pickup', client: 'cli_seII9pzPSgmmJJ', site: 'site_boDWBFERDT5aI9' });
const START = new Date('2026-03-02T17:00:00Z');

type Sandbox = ReturnType<typeof createSandbox>;

function send(sandbox: Sandbox, simulate: string, init: { body?: string; signal?: AbortSignal } = {}): Promise<Response> {
  const headers: Record<string, string> = { Authorization: `Bearer ${KEY}`, 'Sandbox-Simulate': simulate };
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  return sandbox.fetch(
    new Request(init.body === undefined ? 'http://sandbox.test/v1/jobs?limit=1' : 'http://sandbox.test/v1/jobs', {
      method: init.body === undefined ? 'GET' : 'POST',
      headers,
      ...(init.body === undefined ? {} : { body: init.body }),
      ...(init.signal === undefined ? {} : { signal: init.signal }),
    }),
  );
}

beforeEach(() => {
  // Before the sandbox is made, so that its held answers read the fake clock.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: START });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('with the clock stopped', () => {
  it('delay=0 holds nothing: the answer comes at once', async () => {
    const sandbox = createSandbox();
    const answer = await send(sandbox, 'delay=0');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('Sandbox-Fault')).toBe('delay=0');
  });

  it('a client gone before its answer is ready is answered at once: nothing is held for it', async () => {
    const sandbox = createSandbox();
    const gone = new AbortController();
    gone.abort();
    // The write runs (the client cannot stop it), and its answer is not held.
    const answer = await send(sandbox, 'delay=60000', { body: JOB_BODY, signal: gone.signal });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('Sandbox-Fault')).toBe('delay=60000');
  });

  it('a place whose answer never resumes lapses at its deadline, the delay and a second of slack: then a held answer is accepted again', async () => {
    const sandbox = createSandbox();
    const abort = new AbortController();
    // 1,000 answers held a minute; their timers never run, as a request that never resumes.
    const held = Array.from({ length: 1_000 }, () => send(sandbox, 'delay=60000', { signal: abort.signal }));
    try {
      expect((await send(sandbox, 'delay=0')).status).toBe(429);
      vi.setSystemTime(START.getTime() + 60_000 + 1_000 - 1);
      const before = await send(sandbox, 'delay=0');
      expect(before.status).toBe(429);
      expect(before.headers.get('Retry-After')).toBe('1');
      // At the deadline itself, every place has lapsed.
      vi.setSystemTime(START.getTime() + 60_000 + 1_000);
      const after = await send(sandbox, 'delay=0');
      expect(after.status).toBe(200);
      expect(after.headers.get('Sandbox-Fault')).toBe('delay=0');
    } finally {
      abort.abort();
      await Promise.all(held);
    }
  });
});
