// The sample data is a function of the seed alone (SANDBOX.md, "Sample data": byte-identical on
// every start, machine and runtime), and the default seed's data changes only on purpose
// (STYLE.md habit 6: a stored hash).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SEED } from '../src/data/dataset.js';
import { generateSampleData } from '../src/data/generate/index.js';
import { describeChanges, type SampleDataSummary, summarize } from './sample-data-summary.js';

const HASH_FILE = new URL('./sample-data.sha256', import.meta.url);
const SUMMARY_FILE = new URL('./sample-data.summary.json', import.meta.url);

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

  it('matches the stored hash of the default seed, and says what changed when it does not', () => {
    const actual = sha256(json);
    const data = JSON.parse(json) as Parameters<typeof summarize>[0];
    if (process.env.UPDATE_SAMPLE_DATA === '1') {
      writeFileSync(HASH_FILE, `${actual}\n`);
      writeFileSync(SUMMARY_FILE, `${JSON.stringify(summarize(data, actual), null, 2)}\n`);
    }
    const stored = readFileSync(HASH_FILE, 'utf8').trim();
    const summary = JSON.parse(readFileSync(SUMMARY_FILE, 'utf8')) as SampleDataSummary;
    expect(summary.hash, 'test/sample-data.summary.json is the summary of the stored hash').toBe(stored);
    const changes = actual === stored ? [] : describeChanges(summary, data);
    expect(
      actual,
      [
        'The sample data of the default seed changed: docs and tests quote its IDs. What changed:',
        ...(changes.length > 0 ? changes : ['(no list, field or record differs: the order of keys or lists did)']).map(
          (line) => `  ${line}`,
        ),
        'If the change is on purpose, refresh the README catalog (npx tsx scripts/print-sample-catalog.ts), then',
        'store the new hash and summary: UPDATE_SAMPLE_DATA=1 npx vitest run --project node test/sample-data-determinism.test.ts',
      ].join('\n'),
    ).toBe(stored);
  });

  it('names the records and fields that changed', () => {
    const data = JSON.parse(json) as Parameters<typeof summarize>[0];
    const summary = summarize(data, 'x');
    const jobs = data.accounts.A?.jobs as Record<string, unknown>[];
    const changed = structuredClone(data);
    const job = changed.accounts.A?.jobs?.[3] as Record<string, unknown>;
    job.container_count = 999;
    (changed.accounts.A?.invoices?.[0] as Record<string, unknown>).memo = 'new field';
    const lines = describeChanges(summary, changed);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(
      `A jobs: ${jobs.length} → ${jobs.length} records; fields whose values changed: container_count; records new or changed: ${job.id}; 1 record(s) of before no longer as they were`,
    );
    expect(lines[1]).toMatch(/^A invoices: .*fields added: memo; records new or changed: inv_\w+;/);
  });
});
