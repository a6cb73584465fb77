// The sample data is a function of the seed alone (SANDBOX.md, "Sample data": byte-identical on
// every start, machine and runtime), and the default seed's data changes only on purpose
// (STYLE.md habit 6: a stored hash).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SEED } from '../src/data/dataset.js';
import { generateSampleData } from '../src/data/generate/index.js';

const HASH_FILE = new URL('./sample-data.sha256', import.meta.url);

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

const json = JSON.stringify(generateSampleData(DEFAULT_SEED));

describe('sample data determinism', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('gives byte-identical data for the same seed', () => {
    expect(JSON.stringify(generateSampleData(DEFAULT_SEED)) === json).toBe(true);
  });

  it('reads neither the clock nor Math.random', () => {
    vi.useFakeTimers({ now: new Date('2031-07-04T09:30:00Z') });
    vi.spyOn(Math, 'random').mockImplementation(() => {
      throw new Error('the sample data must not use Math.random');
    });
    expect(JSON.stringify(generateSampleData(DEFAULT_SEED)) === json).toBe(true);
  });

  it('gives other records for another seed', () => {
    const other = generateSampleData('another-seed');
    const defaults = JSON.parse(json) as ReturnType<typeof generateSampleData>;
    expect(other.accounts.A.clients.map((client) => client.id)).not.toEqual(defaults.accounts.A.clients.map((client) => client.id));
    expect(other.accounts.A.jobs.map((job) => job.created_at)).not.toEqual(defaults.accounts.A.jobs.map((job) => job.created_at));
  });

  it('matches the stored hash of the default seed', () => {
    const actual = sha256(json);
    const stored = readFileSync(HASH_FILE, 'utf8').trim();
    expect(
      actual,
      [
        'The sample data of the default seed changed: docs and tests quote its IDs.',
        'If the change is on purpose, refresh the README catalog (npx tsx scripts/print-sample-catalog.ts)',
        `and replace the one line of test/sample-data.sha256 with the new hash: ${actual}`,
      ].join('\n'),
    ).toBe(stored);
  });
});
