// Random faults for soak tests (issue #22; docs/testing-retries.md): SANDBOX_FAULTS / --faults /
// createSandbox({ faults }). The same sequence of /v1 requests to a fresh sandbox gets the same
// faults; each fault comes at about its fraction; never on a request with its own Sandbox-Simulate;
// only /v1 requests draw. In-process, where `npm run mutate` runs it too; the built server's
// side (a bad value stops it at start, naming it) is test/faults/random-server.test.ts.
import { describe, expect, it } from 'vitest';
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
  ];

  for (const [value, why] of bad) {
    it(`createSandbox({ faults: ${JSON.stringify(value)} }) throws, naming the option`, () => {
      expect(() => createSandbox({ faults: value })).toThrow(/^createSandbox\(\{ faults \}\) must be a comma list/);
      expect(() => createSandbox({ faults: value })).toThrow(why);
    });
  }
});
