// Every list in the reference's order, checked with comparators written from the reference
// (test/reference/order.ts), never the store's own: newest first, jobs soonest first.
import { beforeAll, describe, expect, it } from 'vitest';
import { OTHER_KEY, PUBLIC_KEY, testApp, type TestApp } from '../helpers.js';
import { referenceNewestFirst, referenceSoonestFirst } from './order.js';
import { COLLECTION_OF, type ObjectName } from './resources.js';
import { everyRecord, type Row } from './walk.js';

const ACCOUNTS = [
  ['A', PUBLIC_KEY],
  ['B', OTHER_KEY],
] as const;
const OBJECTS = Object.keys(COLLECTION_OF) as ObjectName[];

let app: TestApp;

beforeAll(() => {
  app = testApp();
});

function compareOf(object: ObjectName): (a: Row, b: Row) => number {
  return (object === 'job' ? referenceSoonestFirst : referenceNewestFirst) as unknown as (a: Row, b: Row) => number;
}

describe.each(OBJECTS)('%s list', (object) => {
  it.each(ACCOUNTS)('account %s: records come in the reference order', async (account, key) => {
    const rows = await everyRecord(app, COLLECTION_OF[object], key);
    if (object !== 'webhook_endpoint') expect(rows.length).toBeGreaterThan(1);
    const expected = [...rows].sort(compareOf(object)).map((row) => row.id);
    expect(
      rows.map((row) => row.id),
      `${account} /v1/${COLLECTION_OF[object]}`,
    ).toEqual(expected);
  });
});

describe('the orders have something to tell apart', () => {
  it('account A has undated jobs, all after the dated ones, and dated jobs sharing a day', async () => {
    const jobs = await everyRecord(app, 'jobs', PUBLIC_KEY);
    const firstUndated = jobs.findIndex((job) => job.scheduled_for === null);
    expect(firstUndated, 'account A has a job without a date').toBeGreaterThan(0);
    expect(jobs.slice(firstUndated).every((job) => job.scheduled_for === null)).toBe(true);
    const days = jobs.filter((job) => job.scheduled_for !== null).map((job) => job.scheduled_for);
    expect(new Set(days).size, 'two jobs on one day, ordered by window.start').toBeLessThan(days.length);
    // Soonest first is not newest first: the two orders differ on these records.
    expect(jobs.map((job) => job.id)).not.toEqual([...jobs].sort(compareOf('client')).map((job) => job.id));
  });

  it('a newest-first list is not in ID order by chance', async () => {
    const clients = await everyRecord(app, 'clients', PUBLIC_KEY);
    const byId = [...clients].sort((a, b) => (a.id < b.id ? 1 : -1)).map((row) => row.id);
    expect(clients.map((row) => row.id)).not.toEqual(byId);
  });
});

describe('a store built in this test', () => {
  // The store of a seed is built once per process and kept, so the build (and its sort) runs in
  // whichever test first asks for that seed: a seed no other test uses makes it this one.
  it('lists every record of both accounts in the reference order, on data that tells the orders apart', async () => {
    const own = testApp({ SANDBOX_SEED: 'reference-order-check' });
    for (const [account, key] of ACCOUNTS) {
      for (const object of OBJECTS) {
        const rows = await everyRecord(own, COLLECTION_OF[object], key);
        if (object !== 'webhook_endpoint') expect(rows.length, `${account} ${object}`).toBeGreaterThan(1);
        const expected = [...rows].sort(compareOf(object)).map((row) => row.id);
        expect(
          rows.map((row) => row.id),
          `${account} /v1/${COLLECTION_OF[object]}`,
        ).toEqual(expected);
        if (object !== 'job') {
          // Newest first is not ID order by chance: the comparator's dates decide.
          const byId = [...rows].sort((a, b) => (a.id < b.id ? 1 : -1)).map((row) => row.id);
          if (rows.length > 10) expect(expected, `${account} ${object} not in ID order`).not.toEqual(byId);
        }
      }
      const jobs = await everyRecord(own, 'jobs', key);
      const firstUndated = jobs.findIndex((job) => job.scheduled_for === null);
      expect(firstUndated, `${account} has a job without a date, after dated ones`).toBeGreaterThan(0);
      expect(jobs.slice(firstUndated).length, `${account} has two undated jobs, ordered by ID`).toBeGreaterThan(1);
      const days = jobs.filter((job) => job.scheduled_for !== null).map((job) => job.scheduled_for);
      expect(new Set(days).size, `${account}: two jobs on one day`).toBeLessThan(days.length);
    }
    // Jobs sharing a day and a window start: ordered by ID.
    const jobs = await everyRecord(own, 'jobs', PUBLIC_KEY);
    const slots = jobs.map((job) => `${job.scheduled_for} ${(job.window as { start: string } | null)?.start}`);
    expect(new Set(slots).size, 'two jobs on one day with one window start').toBeLessThan(slots.length);
  });
});
