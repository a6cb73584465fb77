// Random faults for soak tests (issue #22; docs/testing-retries.md): SANDBOX_FAULTS / --faults /
// createSandbox({ faults }). The same sequence of /v1 requests to a fresh sandbox gets the same
// faults; each fault comes at about its fraction; never on a request with its own Sandbox-Simulate;
// only /v1 requests draw. In-process, where `npm run mutate` runs it too; the built server's
// side (a bad value stops it at start, naming it) is test/faults/random-server.test.ts.
import { describe, expect, it, vi } from 'vitest';
import { createSandbox } from '../../src/index.js';
// The faults the default seed draws for the first 24 /v1 requests under its SANDBOX_FAULTS: a
// snapshot that changes only on purpose, the same on Workers (test/workers/faults.test.ts).
import DEFAULT_SEED_SEQUENCE from './default-seed-sequence.json';

const KEY = 'svc_test_sandbox_public';
const JOB_BODY = JSON.stringify({ type: 'ci_pickup', client: 'cli_seII9pzPSgmmJJ', site: 'site_boDWBFERDT5aI9' });
const FAULTS = 'api_error=0.1,api_error_after_write=0.1,reset_after_write=0.05,delay=0.05:1,duplicate_event=0.05';

type Sandbox = ReturnType<typeof createSandbox>;

/** One request's outcome as a soak test's log would show it: status and Sandbox-Fault, or reset. */
async function outcome(sandbox: Sandbox, path: string, init: RequestInit = {}): Promise<string> {
  const headers = {
    Authorization: `Bearer ${KEY}`,
    ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
    ...init.headers,
  };
  try {
    const response = await sandbox.fetch(new Request(`http://sandbox.test${path}`, { ...init, headers }));
    return `${response.status} ${response.headers.get('Sandbox-Fault') ?? '-'}`;
  } catch (error) {
    return `reset ${(error as TypeError).cause instanceof Error ? 'ECONNRESET' : String(error)}`;
  }
}

/** A fixed mix of reads and writes, the way a soak test sends them. */
async function sequence(sandbox: Sandbox, count: number): Promise<string[]> {
  const outcomes: string[] = [];
  for (let i = 0; i < count; i++) {
    outcomes.push(
      await (i % 3 === 0 ? outcome(sandbox, '/v1/jobs', { method: 'POST', body: JOB_BODY }) : outcome(sandbox, '/v1/jobs?limit=1')),
    );
  }
  return outcomes;
}

describe('SANDBOX_FAULTS', () => {
  it("draws the default seed's stored sequence", async () => {
    const sandbox = createSandbox({ faults: DEFAULT_SEED_SEQUENCE.faults });
    const outcomes: string[] = [];
    for (let i = 0; i < DEFAULT_SEED_SEQUENCE.outcomes.length; i++) outcomes.push(await outcome(sandbox, '/v1/jobs?limit=1'));
    expect(outcomes).toEqual(DEFAULT_SEED_SEQUENCE.outcomes);
  });

  it('gives the same faults to the same sequence of requests on two fresh sandboxes, and others under another seed', async () => {
    const first = await sequence(createSandbox({ faults: FAULTS }), 300);
    const second = await sequence(createSandbox({ faults: FAULTS }), 300);
    expect(second).toEqual(first);
    const otherSeed = await sequence(createSandbox({ faults: FAULTS, seed: 'another-seed' }), 300);
    expect(otherSeed).not.toEqual(first);
  });

  it('gives each fault to about its fraction of /v1 requests, at most one a request', async () => {
    const sandbox = createSandbox({ faults: 'api_error=0.2,rate_limited=0.1,delay=0.1:0' });
    const count = 2_000;
    const outcomes: string[] = [];
    for (let i = 0; i < count; i++) outcomes.push(await outcome(sandbox, '/v1/jobs?limit=1'));
    const share = (text: string) => outcomes.filter((line) => line === text).length / count;
    // Binomial: four standard deviations at n = 2,000 is under 0.04 for these fractions.
    expect(share('500 api_error')).toBeGreaterThan(0.16);
    expect(share('500 api_error')).toBeLessThan(0.24);
    expect(share('429 rate_limited')).toBeGreaterThan(0.06);
    expect(share('429 rate_limited')).toBeLessThan(0.14);
    expect(share('200 delay=0')).toBeGreaterThan(0.06);
    expect(share('200 delay=0')).toBeLessThan(0.14);
    expect(share('200 -')).toBeGreaterThan(0.54);
    expect(new Set(outcomes)).toEqual(new Set(['500 api_error', '429 rate_limited', '200 delay=0', '200 -']));
  });

  it('never on a request that names its own Sandbox-Simulate, and only /v1 requests draw', async () => {
    const always = createSandbox({ faults: 'api_error=1' });
    expect(await outcome(always, '/v1/jobs?limit=1')).toBe('500 api_error');
    expect(await outcome(always, '/v1/jobs?limit=1', { headers: { 'Sandbox-Simulate': 'delay=0' } })).toBe('200 delay=0');
    const health = await always.fetch(new Request('http://sandbox.test/health'));
    expect(health.status).toBe(200);
    expect((await always.fetch(new Request('http://sandbox.test/openapi.json'))).status).toBe(200);

    // /health, /openapi.json and preflights between /v1 requests leave the sequence as it was.
    const plain = await sequence(createSandbox({ faults: FAULTS }), 60);
    const interleaved = createSandbox({ faults: FAULTS });
    const outcomes: string[] = [];
    for (let i = 0; i < 60; i++) {
      await interleaved.fetch(new Request('http://sandbox.test/health'));
      await interleaved.fetch(new Request('http://sandbox.test/v1/jobs', { method: 'OPTIONS', headers: { Origin: 'https://a.example' } }));
      outcomes.push(
        await (i % 3 === 0
          ? outcome(interleaved, '/v1/jobs', { method: 'POST', body: JOB_BODY })
          : outcome(interleaved, '/v1/jobs?limit=1')),
      );
    }
    expect(outcomes).toEqual(plain);
  });

  it('each fault acts as its Sandbox-Simulate value does', async () => {
    const sandbox = createSandbox({ faults: 'reset_after_write=1' });
    expect(await outcome(sandbox, '/v1/jobs', { method: 'POST', body: JOB_BODY })).toBe('reset ECONNRESET');
    expect(await outcome(sandbox, '/v1/jobs?limit=1')).toBe('500 reset_after_write');
    expect(await outcome(sandbox, '/v1/jobs', { method: 'POST', body: '{}' })).toBe('400 -');
  });

  const bad: [string, RegExp][] = [
    ['api_eror=0.1', /"api_eror" is not one of .*Did you mean "api_error"\?/],
    ['api_error=0.6,reset_after_write=0.5', /add up to 1\.1, more than 1/],
    ['api_error=2', /from 0 to 1, not "2"/],
    ['api_error=', /from 0 to 1, not ""/],
    ['delay=0.1', /milliseconds after the fraction/],
    ['delay=0.1:70000', /0 to 60000/],
    ['api_error=0.1,api_error=0.1', /api_error is given twice/],
    ['api_error=0.1,', /an item is empty/],
    ['api_error=0.1, ', /an item is empty/],
    ['api_error', /from 0 to 1, not ""/],
    ['api_error=0.1:5', /from 0 to 1, not "0\.1:5"/],
    ['api_error=-0.5', /from 0 to 1, not "-0\.5"/],
    ['api_error=1.5', /from 0 to 1, not "1\.5"/],
    ['api_error=10', /from 0 to 1, not "10"/],
    ['delay=0.1:-5', /0 to 60000; received "0\.1:-5"/],
    ['delay=0.1:1e3', /0 to 60000; received "0\.1:1e3"/],
    ['delay=0.1:100.5', /0 to 60000; received "0\.1:100\.5"/],
  ];

  // Fractions from 0 to 1 as decimals, a delay's milliseconds from 0 to 60000, spaces around the
  // items and their parts ignored.
  for (const value of [
    'api_error=0',
    'api_error=1.00',
    'api_error=.25',
    'api_error=0.125',
    'delay=0.1:1500',
    'delay=0.1:60000',
    ' api_error = 0.5 , delay = 0.1:0 ',
  ]) {
    it(`createSandbox({ faults: ${JSON.stringify(value)} }) takes it`, () => {
      expect(() => createSandbox({ faults: value })).not.toThrow();
    });
  }

  for (const [value, why] of bad) {
    it(`createSandbox({ faults: ${JSON.stringify(value)} }) throws, naming the option`, () => {
      expect(() => createSandbox({ faults: value })).toThrow(/^createSandbox\(\{ faults \}\) must be a comma list/);
      expect(() => createSandbox({ faults: value })).toThrow(why);
    });
  }
});

describe('what each item reads as', () => {
  it('spaces around an item and around its "=": the fault acts', async () => {
    expect(await outcome(createSandbox({ faults: ' api_error = 1 ' }), '/v1/jobs?limit=1')).toBe('500 api_error');
  });

  it('a random delay holds its answer for its milliseconds', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const sandbox = createSandbox({ faults: 'delay=1:60000' });
      // The sample data ready (/health draws no fault), so that the request runs at once.
      expect((await sandbox.fetch(new Request('http://sandbox.test/health'))).status).toBe(200);
      let answered: string | undefined;
      void outcome(sandbox, '/v1/jobs?limit=1').then((line) => {
        answered = line;
      });
      await vi.advanceTimersByTimeAsync(59_999);
      expect(answered).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(answered).toBe('200 delay=60000');
    } finally {
      vi.useRealTimers();
    }
  });

  it('fractions that add up to 1 within a billionth are taken (decimals are not exact in binary); more is refused', () => {
    expect(() => createSandbox({ faults: 'api_error=0.5,rate_limited=0.500000001' })).not.toThrow();
    expect(() => createSandbox({ faults: 'api_error=0.5,rate_limited=0.500001' })).toThrow(/add up to 1\.000001, more than 1/);
  });

  it("a fault's share of [0, 1) holds its start and not its end", async () => {
    // The default seed's first draw is exactly 59162858 / 2^32: at the end of a share of that
    // size, it gets no fault; with a share one 2^-32 larger, it does.
    expect(await outcome(createSandbox({ faults: 'api_error=0.0137749263085424900054931640625' }), '/v1/jobs?limit=1')).toBe('200 -');
    expect(await outcome(createSandbox({ faults: 'api_error=0.01377492654137313365936279296875' }), '/v1/jobs?limit=1')).toBe(
      '500 api_error',
    );
    // The start: a share of the same size after it gets the draw.
    expect(
      await outcome(createSandbox({ faults: 'rate_limited=0.0137749263085424900054931640625,api_error=0.5' }), '/v1/jobs?limit=1'),
    ).toBe('500 api_error');
  });
});
