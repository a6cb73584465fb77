// The sample store held directly: its list comparators on hand-made ties, its account names, the
// prebuilt round trip (the form the build ships), a job's containers, its pages' ends through
// HTTP, and the store kept per seed. Each test builds what it holds inside itself, from a seed no
// other file uses, so the code it checks runs in it (docs/operations.md, "Mutation testing").
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { SampleData } from '../src/data/dataset.js';
import { generateSampleData } from '../src/data/generate/index.js';
import type { PrebuiltListText, PrebuiltSampleData } from '../src/data/prebuilt.js';
import { newestFirst, SampleStore, sampleStore, soonestFirst } from '../src/data/store.js';
import type { Job } from '../src/resources/jobs/schema.js';
import { call, OTHER_KEY, testApp } from './helpers.js';
import { referenceNewestFirst, referenceSoonestFirst } from './reference/order.js';

const SEED = 'store-test-check';
const ACCOUNTS = ['A', 'B'] as const;
/** The collections the store indexes: the list paths of the reference. */
const LISTS = ['clients', 'sites', 'waste_profiles', 'jobs', 'containers', 'manifests', 'invoices', 'webhook_endpoints', 'events'] as const;

type Row = { id: string; created_at: string };

let data: SampleData;
beforeAll(() => {
  data = generateSampleData(SEED);
});

/** The generated records of a list, in the reference's order. */
function inReferenceOrder(records: readonly object[], list: string): Row[] {
  const compare = (list === 'jobs' ? referenceSoonestFirst : referenceNewestFirst) as unknown as (a: Row, b: Row) => number;
  return [...(records as Row[])].sort(compare);
}

/** The store's read form of a prebuilt text (as the Worker's module gives it: src/data/prebuilt.ts). */
function readable(text: PrebuiltSampleData<PrebuiltListText>): PrebuiltSampleData {
  const account = (lists: Record<string, PrebuiltListText>) =>
    Object.fromEntries(
      Object.entries(lists).map(([collection, { json, ends }]) => [
        collection,
        { ends, json: () => json, utf8: () => new TextEncoder().encode(json) as Uint8Array<ArrayBuffer> },
      ]),
    );
  return { seed: text.seed, accounts: { A: account(text.accounts.A), B: account(text.accounts.B) } } as unknown as PrebuiltSampleData;
}

const sign = (n: number) => Math.sign(n);

describe('the list comparators', () => {
  it('order records newest first, ties by ID highest first, as the reference does', () => {
    const records = [
      { id: 'cli_b', created_at: '2026-01-02T00:00:00Z' },
      { id: 'cli_a', created_at: '2026-01-02T00:00:00Z' },
      { id: 'cli_c', created_at: '2026-01-02T00:00:00Z' },
      { id: 'cli_0', created_at: '2026-01-03T00:00:00Z' },
      { id: 'cli_z', created_at: '2026-01-01T00:00:00Z' },
    ];
    for (const a of records) {
      for (const b of records) expect(sign(newestFirst(a, b)), `${a.id} against ${b.id}`).toBe(sign(referenceNewestFirst(a, b)));
    }
    expect([...records].sort(newestFirst).map((record) => record.id)).toEqual(['cli_0', 'cli_c', 'cli_b', 'cli_a', 'cli_z']);
  });

  it('order jobs soonest first: by day, then window start, then ID, undated last, as the reference does', () => {
    const job = (id: string, day: string | null, start: string | null) =>
      ({ id, scheduled_for: day, window: start === null ? null : { start, end: '23:00' } }) as unknown as Job;
    const jobs = [
      job('job_e', null, null),
      job('job_d', null, null),
      job('job_c', '2026-04-02', '08:00'),
      job('job_b', '2026-04-02', '08:00'),
      job('job_a', '2026-04-02', '13:00'),
      job('job_f', '2026-04-02', null),
      job('job_g', '2026-04-01', '14:00'),
    ];
    for (const a of jobs) {
      for (const b of jobs) expect(sign(soonestFirst(a, b)), `${a.id} against ${b.id}`).toBe(sign(referenceSoonestFirst(a, b)));
    }
    expect([...jobs].sort(soonestFirst).map((record) => record.id)).toEqual([
      'job_g',
      'job_b',
      'job_c',
      'job_a',
      'job_f',
      'job_d',
      'job_e',
    ]);
  });
});

describe('a sample store', () => {
  it('names its accounts A and B, and keeps the seed it was made from', () => {
    const store = SampleStore.fromData(data);
    expect(store.seed).toBe(SEED);
    for (const name of ACCOUNTS) {
      expect(store.accounts[name].name).toBe(name);
      expect(store.accounts[name].seed).toBe(SEED);
    }
  });

  it('rebuilt from its prebuilt text, serves the same records byte for byte, in list order', () => {
    const original = SampleStore.fromData(data);
    const text = original.toPrebuilt();
    expect(text.seed).toBe(SEED);
    const rebuilt = SampleStore.fromPrebuilt(readable(text));
    expect(rebuilt.seed).toBe(SEED);
    const decoder = new TextDecoder();
    for (const name of ACCOUNTS) {
      expect(rebuilt.accounts[name].name).toBe(name);
      for (const list of LISTS) {
        const expected = inReferenceOrder(data.accounts[name][list], list);
        const where = `${name} ${list}`;
        // The text: one JSON array in list order, each record ending where `ends` says.
        const { json, ends } = text.accounts[name][list];
        expect(
          (JSON.parse(json) as Row[]).map((row) => row.id),
          where,
        ).toEqual(expected.map((row) => row.id));
        expect(ends, where).toHaveLength(expected.length);
        const bytes = new TextEncoder().encode(json);
        let start = 1;
        for (const [i, end] of ends.entries()) {
          expect(JSON.parse(decoder.decode(bytes.subarray(start, end))), where).toEqual(expected[i]);
          start = end + 1;
        }
        // The store read back from it.
        const index = rebuilt.accounts[name][list];
        expect(
          index.records.map((row) => row.id),
          where,
        ).toEqual(expected.map((row) => row.id));
        for (const record of expected) {
          expect(JSON.parse(decoder.decode(index.bytes(record.id))), where).toEqual(record);
          expect(index.get(record.id), where).toEqual(record);
        }
      }
    }
    // And written again, the same text: nothing gained or lost on the way.
    expect(JSON.stringify(rebuilt.toPrebuilt())).toBe(JSON.stringify(text));
  });

  it('gives each job its containers oldest first, once built the same map', () => {
    const account = SampleStore.fromData(data).accounts.A;
    const byJob = account.containersByJob;
    expect(account.containersByJob).toBe(byJob);
    const containers = data.accounts.A.containers as unknown as (Row & { job: string })[];
    const jobs = new Set(containers.map((container) => container.job));
    expect(byJob.size).toBe(jobs.size);
    let several = 0;
    for (const job of jobs) {
      const expected = containers
        .filter((container) => container.job === job)
        .sort((a, b) => referenceNewestFirst(b, a))
        .map((container) => container.id);
      if (expected.length > 1) several++;
      expect(
        byJob.get(job)?.map((container) => container.id),
        job,
      ).toEqual(expected);
    }
    expect(several, 'jobs with more than one container').toBeGreaterThan(1);
  });
});

describe('pages through HTTP', () => {
  it('start at the first record, give next_cursor only while there are more, and null at the end', async () => {
    const app = testApp({ SANDBOX_SEED: SEED }, { store: SampleStore.fromData(data) });
    const clients = inReferenceOrder(data.accounts.B.clients, 'clients').map((row) => row.id);
    const count = clients.length;
    expect(count).toBeGreaterThan(2);
    const page = async (query: string) => (await call(app, `/v1/clients?${query}`, { key: OTHER_KEY })).json;

    const first = await page('limit=2');
    expect(first.data.map((row: Row) => row.id)).toEqual(clients.slice(0, 2));
    expect(first).toMatchObject({ has_more: true, next_cursor: clients[1] });

    const rest = await page(`limit=100&starting_after=${clients[1]}`);
    expect(rest.data.map((row: Row) => row.id)).toEqual(clients.slice(2));
    expect(rest).toMatchObject({ has_more: false, next_cursor: null });

    // A page that ends exactly at the list's end: nothing more, no cursor.
    const whole = await page(`limit=${count}`);
    expect(whole.data.map((row: Row) => row.id)).toEqual(clients);
    expect(whole).toMatchObject({ has_more: false, next_cursor: null });

    // After the last record: an empty page.
    const after = await page(`starting_after=${clients[count - 1]}`);
    expect(after).toMatchObject({ data: [], has_more: false, next_cursor: null });
  });

  it('answer 404 for an ID not in the account, and starting_after not in the list is a 400', async () => {
    const app = testApp({ SANDBOX_SEED: SEED }, { store: SampleStore.fromData(data) });
    const missing = await call(app, '/v1/clients/cli_notInTheSampleData', { key: OTHER_KEY });
    expect(missing.status).toBe(404);
    expect(missing.json.error).toMatchObject({ code: 'resource_missing' });
    const unknown = await call(app, '/v1/clients?starting_after=cli_notInTheSampleData', { key: OTHER_KEY });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toMatchObject({ code: 'parameter_invalid', param: 'starting_after' });
  });
});

describe('the store of a seed', () => {
  it('is one promise while it is generated, then the store itself', async () => {
    const seed = 'store-test-kept';
    const loading = sampleStore(seed);
    expect(loading).toBeInstanceOf(Promise);
    expect(sampleStore(seed), 'a second caller waits on the same generation').toBe(loading);
    const store = await loading;
    expect(store.seed).toBe(seed);
    expect(sampleStore(seed), 'once generated, the store at once').toBe(store);
  });

  it('is generated again after a generation that failed', async () => {
    const seed = 'store-test-failing';
    vi.doMock('../src/data/generated-store.js', () => ({
      generateSampleData: () => {
        throw new Error('generation failed');
      },
    }));
    try {
      await expect(sampleStore(seed)).rejects.toThrow('generation failed');
    } finally {
      vi.doUnmock('../src/data/generated-store.js');
    }
    // Let the store forget the failure (it does so when the failed promise settles).
    await new Promise((resolve) => setTimeout(resolve, 0));
    const store = await sampleStore(seed);
    expect(store.seed).toBe(seed);
  });

  it('is the prebuilt one, at once, when the build ships that seed', async () => {
    const seed = 'store-test-prebuilt';
    const text = SampleStore.fromData({ ...data, seed }).toPrebuilt();
    vi.doMock('#prebuilt-sample-data', () => ({ PREBUILT_SAMPLE_DATA: readable(text) }));
    // The store module loaded afresh (its own copy, as a bundle with prebuilt data loads it).
    const fresh = './../src/data/store.js?with-prebuilt-data';
    let module: typeof import('../src/data/store.js');
    try {
      module = await import(/* @vite-ignore */ fresh);
    } finally {
      vi.doUnmock('#prebuilt-sample-data');
    }
    const store = module.sampleStore(seed);
    expect(store).toBeInstanceOf(module.SampleStore);
    expect(module.sampleStore(seed)).toBe(store);
    const { accounts } = store as SampleStore;
    expect([accounts.A.name, accounts.B.name]).toEqual(['A', 'B']);
    expect(accounts.B.clients.records.map((row) => row.id)).toEqual(
      inReferenceOrder(data.accounts.B.clients, 'clients').map((row) => row.id),
    );
    // The fresh module's own bytes and order: a page as it serves it, and jobs sorted by it.
    const page = JSON.parse(new TextDecoder().decode(accounts.A.jobs.page(undefined, 3, undefined)));
    expect(page).toMatchObject({ object: 'list', has_more: true, next_cursor: page.data[2]?.id });
    expect(page.data).toHaveLength(3);
    const sorted = module.SampleStore.fromData({ ...data, seed: 'store-test-fresh-sort' });
    expect(sorted.accounts.A.jobs.records.map((row) => row.id)).toEqual(
      inReferenceOrder(data.accounts.A.jobs, 'jobs').map((row) => row.id),
    );
    // Any other seed is generated: a promise.
    const other = module.sampleStore('store-test-not-prebuilt');
    expect(other).toBeInstanceOf(Promise);
    await other;
  });
});
