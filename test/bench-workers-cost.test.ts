// The arithmetic of `npm run bench`'s cost of a million requests on Workers (issue #35), checked
// against figures computed by hand from Cloudflare's published prices: Workers
// (https://developers.cloudflare.com/workers/platform/pricing/) and Durable Objects
// (https://developers.cloudflare.com/durable-objects/platform/pricing/), Workers Paid plan.
import { describe, expect, it } from 'vitest';

interface Line {
  name: string;
  quantity: number;
  cost: number;
}
interface CostModule {
  PRICES: Record<string, number>;
  DEFAULT_MIX: { kind: string; share: number }[];
  costOfMillion(
    mix: { kind: string; share: number }[],
    measured: Record<string, { cpuMs: number; durableObjectCalls: number; rowsWritten: number; rowsRead: number }>,
  ): { lines: Line[]; total: number };
}

const { PRICES, DEFAULT_MIX, costOfMillion } = (await import(
  new URL('../scripts/bench/workers-cost.mjs', import.meta.url).href
)) as CostModule;

const MEASURED = {
  list: { cpuMs: 1, durableObjectCalls: 1, rowsWritten: 0, rowsRead: 0 },
  get: { cpuMs: 1, durableObjectCalls: 1, rowsWritten: 0, rowsRead: 0 },
  create: { cpuMs: 2, durableObjectCalls: 1, rowsWritten: 0, rowsRead: 0 },
  'create, Idempotency-Key': { cpuMs: 6, durableObjectCalls: 3, rowsWritten: 6, rowsRead: 1 },
};

describe('the cost of a million requests on Workers', () => {
  it("uses Cloudflare's published prices for Workers Paid", () => {
    expect(PRICES).toEqual({
      workerRequestsPerMillion: 0.3,
      workerCpuPerMillionMs: 0.02,
      durableObjectRequestsPerMillion: 0.15,
      durableObjectPerMillionGbS: 12.5,
      rowsWrittenPerMillion: 1,
      rowsReadPerMillion: 0.001,
      storedPerGbMonth: 0.2,
    });
  });

  it('prices 35% lists, 35% gets, 20% creates and 10% keyed creates as computed by hand', () => {
    expect(DEFAULT_MIX).toEqual([
      { kind: 'list', share: 0.35 },
      { kind: 'get', share: 0.35 },
      { kind: 'create', share: 0.2 },
      { kind: 'create, Idempotency-Key', share: 0.1 },
    ]);
    const { lines, total } = costOfMillion(DEFAULT_MIX, MEASURED);
    const byName = Object.fromEntries(lines.map((line) => [line.name, line]));
    // 1,000,000 requests × $0.30 a million.
    expect(byName['Worker requests']).toMatchObject({ quantity: 1_000_000, cost: 0.3 });
    // 0.35×1 + 0.35×1 + 0.2×2 + 0.1×6 = 1.7 ms a request: 1,700,000 ms × $0.02 a million.
    expect(byName['Worker CPU']?.quantity).toBeCloseTo(1_700_000, 6);
    expect(byName['Worker CPU']?.cost).toBeCloseTo(0.034, 10);
    // 0.35 + 0.35 + 0.2 + 0.1×(3 + the alarm 24 hours later) = 1.3 calls: 1,300,000 × $0.15 a million.
    expect(byName['Durable Object requests']?.quantity).toBeCloseTo(1_300_000, 6);
    expect(byName['Durable Object requests']?.cost).toBeCloseTo(0.195, 10);
    // 1.3 calls × 5 ms × 128 MB (0.125 GB) = 0.0008125 GB-s a request: 812.5 GB-s × $12.50 a million.
    expect(byName['Durable Object duration']?.quantity).toBeCloseTo(812.5, 6);
    expect(byName['Durable Object duration']?.cost).toBeCloseTo(0.01015625, 10);
    // 0.1 × (6 + the delete 24 hours later) = 0.7 rows: 700,000 × $1.00 a million.
    expect(byName['SQLite rows written']?.quantity).toBeCloseTo(700_000, 6);
    expect(byName['SQLite rows written']?.cost).toBeCloseTo(0.7, 10);
    // 0.1 × (1 + the alarm's read) = 0.2 rows: 200,000 × $0.001 a million.
    expect(byName['SQLite rows read']?.cost).toBeCloseTo(0.0002, 10);
    // 0.1 × 12,688 bytes for 1 day of a 30-day month, a million times: 0.042293 GB-month × $0.20.
    expect(byName['SQLite stored data']?.quantity).toBeCloseTo(0.0422933, 6);
    expect(byName['SQLite stored data']?.cost).toBeCloseTo(0.00845867, 7);
    expect(total).toBeCloseTo(1.24781492, 7);
  });

  it('refuses a mix whose shares do not add up to 1, and a kind it has no figures for', () => {
    expect(() => costOfMillion([{ kind: 'list', share: 0.5 }], MEASURED)).toThrow(/add up to 0.5/);
    expect(() => costOfMillion([{ kind: 'delete', share: 1 }], MEASURED)).toThrow(/no measurement of delete/);
  });
});
