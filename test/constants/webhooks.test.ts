// The documented numbers of webhook deliveries (issue #37, part 3): each test fails when the value
// changes. Every expected value is written here from the docs, quoted beside it, never imported
// from src/.
//
// Time is the fake clock's, never the machine's: deliveries go to a stubbed fetch (a receiver that
// answers as the test says, or never), and AbortSignal.timeout, which fake timers do not reach, is
// replaced by the same thing on the fake clock (abort with a TimeoutError after that many ms), so
// a time-out is observed as the moment the attempt ends.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { checkReceiver, createSandbox, type SandboxEvent } from '../../src/index.js';

const KEY = 'svc_test_sandbox_public';
const SECRET = 'whsec_constantsTestSecret0123456789';
const RECEIVER = 'http://receiver.test/webhooks';
/** A client and one of its sites in the default seed (docs/sample-data.md, README "Try it"). */
const JOB = { type: 'ci_pickup', client: 'cli_seII9pzPSgmmJJ', site: 'site_boDWBFERDT5aI9' };

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function useFakeClock(): () => number {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  // AbortSignal.timeout on the fake clock: aborts with the TimeoutError the platform's would.
  vi.spyOn(AbortSignal, 'timeout').mockImplementation((ms: number) => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms);
    return controller.signal;
  });
  const start = Date.now();
  return () => Date.now() - start;
}

interface Attempt {
  startedAt: number;
  endedAt?: number;
}

/** A receiver that never answers: each attempt ends only when its signal aborts it. */
function silentReceiver(now: () => number): Attempt[] {
  const attempts: Attempt[] = [];
  vi.stubGlobal('fetch', (_url: string, init: RequestInit) => {
    const attempt: Attempt = { startedAt: now() };
    attempts.push(attempt);
    return new Promise((_resolve, reject) => {
      init.signal?.addEventListener('abort', () => {
        attempt.endedAt = now();
        reject(init.signal?.reason);
      });
    });
  });
  return attempts;
}

/** A receiver that answers every attempt with `status` at once. */
function answeringReceiver(now: () => number, status: number): number[] {
  const starts: number[] = [];
  vi.stubGlobal('fetch', async () => {
    starts.push(now());
    return new Response(null, { status });
  });
  return starts;
}

function post(path: string, body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`http://sandbox.test${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** A sandbox delivering to RECEIVER, warmed up (its first request builds what it needs) before the clock is faked. */
async function deliveringSandbox(onEvent?: (event: SandboxEvent) => void) {
  const sandbox = createSandbox({ webhook: { url: RECEIVER, secret: SECRET }, ...(onEvent ? { onEvent } : {}) });
  await sandbox.fetch(new Request('http://sandbox.test/v1/jobs?limit=1', { headers: { Authorization: `Bearer ${KEY}` } }));
  return sandbox;
}

describe('events of writes: time-out, retry schedule, attempts', () => {
  it('waits 10 s for an answer, retries after 1, 2, 4 and 8 s, and gives up after 5 attempts', async () => {
    // docs/events-from-writes.md, "Delivery": "A non-2xx answer, a refused connection or no answer
    // within 10 s is retried after 1, 2, 4 and 8 s: 5 attempts."
    const sandbox = await deliveringSandbox();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const now = useFakeClock();
    const attempts = silentReceiver(now);
    const created = await sandbox.fetch(post('/v1/jobs', JOB));
    expect(created.status).toBe(201);
    const job = (await created.json()) as { id: string };

    await vi.advanceTimersByTimeAsync(0);
    expect(attempts).toEqual([{ startedAt: 0 }]);
    // The first attempt is still waiting 1 ms before its 10 s are up, and ends at 10 s exactly.
    await vi.advanceTimersByTimeAsync(9_999);
    expect(attempts).toEqual([{ startedAt: 0 }]);
    await vi.advanceTimersByTimeAsync(1);
    expect(attempts[0]).toEqual({ startedAt: 0, endedAt: 10_000 });

    await vi.advanceTimersByTimeAsync(120_000);
    // Each attempt waits 10 s; the gaps after them are 1, 2, 4 and 8 s.
    expect(attempts).toEqual([
      { startedAt: 0, endedAt: 10_000 },
      { startedAt: 11_000, endedAt: 21_000 },
      { startedAt: 23_000, endedAt: 33_000 },
      { startedAt: 37_000, endedAt: 47_000 },
      { startedAt: 55_000, endedAt: 65_000 },
    ]);
    // "An event given up on after 5 attempts is logged too" — the reason names the 10 s.
    const gaveUp = errors.mock.calls.map(([line]) => String(line)).filter((line) => line.includes('gave up'));
    expect(gaveUp).toHaveLength(1);
    expect(gaveUp[0]).toMatch(
      new RegExp(`^webhook: gave up on job\\.created evt_\\w+ after 5 attempts to ${RECEIVER} \\(no answer within 10 s\\)$`),
    );
    expect(job.id).toMatch(/^job_/);
  });

  it('a receiver answering 500 gets exactly 5 attempts, the gaps 1, 2, 4 and 8 s apart', async () => {
    // docs/webhook-signatures.md, "Retries and duplicates": "the sandbox's gaps are 1, 2, 4 and 8 s: 5 attempts".
    const sandbox = await deliveringSandbox();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const now = useFakeClock();
    const starts = answeringReceiver(now, 500);
    expect((await sandbox.fetch(post('/v1/jobs', JOB))).status).toBe(201);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(starts).toEqual([0, 1_000, 3_000, 7_000, 15_000]);
    expect(errors.mock.calls.map(([line]) => String(line))).toEqual([
      expect.stringMatching(
        /^webhook: gave up on job\.created evt_\w+ after 5 attempts to http:\/\/receiver\.test\/webhooks \(answered 500\)$/,
      ),
    ]);
  });
});

describe('events of writes: the bounds of the queue', () => {
  it('4 deliveries in flight and 100 events waiting; the 101st waiting drops the oldest, logged at once', async () => {
    // docs/events-from-writes.md, "Delivery": "It is bounded: 4 deliveries in flight, 100 events
    // waiting behind them. When 100 wait, the oldest waiting event is dropped and logged".
    const events: SandboxEvent[] = [];
    const sandbox = await deliveringSandbox((event) => events.push(event));
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const now = useFakeClock();
    const attempts = silentReceiver(now);
    const create = async () => {
      expect((await sandbox.fetch(post('/v1/jobs', JOB))).status).toBe(201);
      // Deliveries start on a later turn: let each one start before the next write.
      await vi.advanceTimersByTimeAsync(0);
    };

    for (let n = 0; n < 4; n++) await create();
    expect(attempts, '4 deliveries in flight').toHaveLength(4);
    for (let n = 0; n < 100; n++) await create();
    expect(attempts, 'the rest wait').toHaveLength(4);
    expect(errors, '100 waiting: nothing dropped yet').not.toHaveBeenCalled();

    await create();
    // The oldest waiting event is the fifth write's: the first four are in flight.
    const oldestWaiting = events[4] as SandboxEvent;
    expect(errors.mock.calls.map(([line]) => String(line))).toEqual([
      `webhook: dropped job.created ${oldestWaiting.id}: 100 events already wait for ${RECEIVER}`,
    ]);
    expect(attempts).toHaveLength(4);
  });

  it('after the first drop, at most one line every 5 s, with the count', async () => {
    // docs/events-from-writes.md, "Delivery": "dropped and logged (one line, then at most one line
    // every 5 s with the count)".
    const events: SandboxEvent[] = [];
    const sandbox = await deliveringSandbox((event) => events.push(event));
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const now = useFakeClock();
    silentReceiver(now);
    const create = async () => {
      expect((await sandbox.fetch(post('/v1/jobs', JOB))).status).toBe(201);
      await vi.advanceTimersByTimeAsync(0);
    };
    const lines = () => errors.mock.calls.map(([line]) => String(line)).filter((line) => line.startsWith('webhook: dropped'));

    for (let n = 0; n < 105; n++) await create();
    expect(lines()).toHaveLength(1);
    await create();
    await vi.advanceTimersByTimeAsync(4_999 - now());
    await create();
    expect(lines(), 'within 5 s of the first line: counted, not said').toHaveLength(1);
    await vi.advanceTimersByTimeAsync(5_000 - now());
    await create();
    const last = events.at(-1) as SandboxEvent;
    // Three drops since the first line; the line's count is that of the drops since the last line.
    expect(lines()).toHaveLength(2);
    expect(lines()[1]).toMatch(/^webhook: dropped 3 events, the last job\.created evt_\w+: 100 events already wait for /);
    expect(last.type).toBe('job.created');
  });
});

describe('duplicate_event: the second delivery about a second after the first', () => {
  it('delivers the same event again 1 s later', async () => {
    // SANDBOX.md, "Failures on demand": "each event it emits is delivered twice, the same bytes and
    // event ID, the second about a second after the first"; docs/testing-retries.md: "about a second apart".
    const sandbox = await deliveringSandbox();
    const now = useFakeClock();
    const bodies: { at: number; body: string }[] = [];
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      bodies.push({ at: now(), body: String(init.body) });
      return new Response(null, { status: 200 });
    });
    const created = await sandbox.fetch(post('/v1/jobs', JOB, { 'Sandbox-Simulate': 'duplicate_event' }));
    expect(created.status).toBe(201);
    await vi.advanceTimersByTimeAsync(0);
    const first = bodies[0]?.at as number;
    await vi.advanceTimersByTimeAsync(first + 999 - now());
    expect(bodies, 'nothing more before the second is up').toHaveLength(1);
    // One second later, give or take the turn of the event loop on which every delivery starts.
    await vi.advanceTimersByTimeAsync(first + 1_001 - now());
    expect(bodies).toHaveLength(2);
    expect((bodies[1]?.at as number) - first).toBeGreaterThanOrEqual(1_000);
    expect(bodies[1]?.body).toBe(bodies[0]?.body);
  });
});

describe('trigger: its defaults', () => {
  it('--timeout 10, --attempts 5, gaps 1, 2, 4, … s: a receiver that never answers', async () => {
    // docs/toolkit.md, "Signed webhook deliveries": "no answer within `--timeout` seconds (default
    // 10) is retried after 1, 2, 4, … s (`--backoff` sets the first gap) up to `--attempts` tries
    // (default 5)"; "Exit code 0 when every event was delivered, 1 when one was not".
    const out: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void out.push(String(line)));
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void out.push(String(line)));
    const now = useFakeClock();
    const attempts = silentReceiver(now);
    const exit = main(['trigger', 'job.created', '--url', RECEIVER, '--secret', SECRET]);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(await exit).toBe(1);
    expect(attempts).toEqual([
      { startedAt: 0, endedAt: 10_000 },
      { startedAt: 11_000, endedAt: 21_000 },
      { startedAt: 23_000, endedAt: 33_000 },
      { startedAt: 37_000, endedAt: 47_000 },
      { startedAt: 55_000, endedAt: 65_000 },
    ]);
    expect(out.filter((line) => line.includes('no answer within 10 s'))).toHaveLength(5);
  });

  it('--help states the same defaults', async () => {
    const out: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void out.push(String(line)));
    await main(['trigger', '--help']);
    const help = out.join('\n');
    expect(help).toMatch(/--timeout SECONDS .*\(default 10\)/);
    expect(help).toMatch(/--attempts N .*\(default 5\)/);
    expect(help).toMatch(/--backoff SECONDS .*\(default 1\)/);
  });
});

describe('check-receiver: 10 s for each answer', () => {
  // Port 9 (discard) on loopback: nothing listens, so only the valid check is sent, refused at once.
  const NOTHING_THERE = 'http://127.0.0.1:9/webhooks';

  it('checkReceiver asks 10 s of each post by default, and takes at most 600000 ms', async () => {
    // docs/webhook-signatures.md, "check-receiver": "Options: `timeoutMs` (default 10000, at most
    // 600000)"; "each delivery waits at most 10 s".
    // check-receiver posts with node:http, bounded by AbortSignal.timeout: the time-out each post
    // asks for is what is seen (the platform's own, only watched).
    const asked = vi.spyOn(AbortSignal, 'timeout');
    const report = await checkReceiver(NOTHING_THERE, { secret: SECRET });
    expect(report.ok).toBe(false);
    expect(asked.mock.calls).toEqual([[10_000]]);

    await expect(checkReceiver(NOTHING_THERE, { secret: SECRET, timeoutMs: 600_001 })).rejects.toThrow(TypeError);
    asked.mockClear();
    await expect(checkReceiver(NOTHING_THERE, { secret: SECRET, timeoutMs: 600_000 })).resolves.toMatchObject({ ok: false });
    expect(asked.mock.calls).toEqual([[600_000]]);
  });

  it('the command says 10 s in its first line, and asks 10 s of each post', async () => {
    // docs/webhook-signatures.md: "Checking http://127.0.0.1:4242/webhooks: 8 deliveries of
    // job.created sample events, each answered within 10 s"; "each delivery waits at most 10 s
    // (`--timeout <seconds>`, e.g. `--timeout 2`)".
    const out: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void out.push(String(line)));
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void out.push(String(line)));
    const asked = vi.spyOn(AbortSignal, 'timeout');
    expect(await main(['check-receiver', NOTHING_THERE, '--secret', SECRET])).toBe(1);
    expect(out.join('\n')).toContain(`Checking ${NOTHING_THERE}: 8 deliveries of job.created sample events, each answered within 10 s`);
    expect(asked.mock.calls).toEqual([[10_000]]);
  });
});
