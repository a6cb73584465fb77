// Every list endpoint walked page by page in both accounts: the envelope, the strict schema of
// every record, the order, the cursors and each filter (reference, "Endpoints"; SANDBOX.md).
import { beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ENDPOINTS } from '../src/resources/index.js';
import { call, OTHER_KEY, PUBLIC_KEY, testApp, type TestApp } from './helpers.js';
import { referenceNewestFirst, referenceSoonestFirst } from './reference/order.js';

const LIST_ENDPOINTS = ENDPOINTS.filter((endpoint) => endpoint.method === 'GET' && !endpoint.path.includes('{'));
const ACCOUNTS = [
  ['A', PUBLIC_KEY],
  ['B', OTHER_KEY],
] as const;

type Row = Record<string, unknown> & { id: string };

let app: TestApp;
/** Every record of each list, per account, walked with the largest page. */
const everything = new Map<string, Row[]>();

async function walk(path: string, key: string, limit: number): Promise<{ pages: unknown[]; rows: Row[] }> {
  const pages: unknown[] = [];
  const rows: Row[] = [];
  let cursor: string | null = null;
  for (;;) {
    const separator = path.includes('?') ? '&' : '?';
    const url: string = `${path}${separator}limit=${limit}${cursor === null ? '' : `&starting_after=${cursor}`}`;
    const result = await call(app, url, { key });
    expect(result.status, `${url}: ${result.text}`).toBe(200);
    pages.push(result.json);
    rows.push(...result.json.data);
    const { data, has_more: hasMore, next_cursor: next } = result.json;
    expect(data.length).toBeLessThanOrEqual(limit);
    if (!hasMore) {
      expect(next, `${url}: the last page has no cursor`).toBeNull();
      return { pages, rows };
    }
    expect(data.length, `${url}: a page before the last is full`).toBe(limit);
    expect(next, `${url}: next_cursor is the last ID of the page`).toBe(data[data.length - 1].id);
    cursor = next;
    if (pages.length > 500) throw new Error(`${path} never ends`);
  }
}

function filtersOf(endpoint: (typeof LIST_ENDPOINTS)[number]): string[] {
  if (endpoint.query === undefined) throw new Error(`${endpoint.path} takes no query`);
  const shape = (endpoint.query() as z.ZodObject).shape;
  return Object.keys(shape).filter((name) => name !== 'limit' && name !== 'starting_after');
}

beforeAll(async () => {
  app = testApp();
  for (const [account, key] of ACCOUNTS) {
    for (const endpoint of LIST_ENDPOINTS) {
      everything.set(`${account} ${endpoint.path}`, (await walk(endpoint.path, key, 100)).rows);
    }
  }
});

describe.each(LIST_ENDPOINTS.map((endpoint) => [endpoint.path, endpoint] as const))('GET %s', (path, endpoint) => {
  it.each(ACCOUNTS)('account %s: every page is a strict list envelope of strict records', async (account, key) => {
    const { pages, rows } = await walk(path, key, 7);
    for (const page of pages) endpoint.success.schema().parse(page);
    expect(rows.map((row) => row.id)).toEqual(everything.get(`${account} ${path}`)?.map((row) => row.id));
    expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
  });

  it.each(ACCOUNTS)('account %s: records come in the documented order', (account) => {
    const rows = everything.get(`${account} ${path}`) ?? [];
    expect(rows.length).toBeGreaterThan(0);
    // The reference's order, by a comparator written from it (test/reference/order.ts), never the store's.
    const compare = (path === '/v1/jobs' ? referenceSoonestFirst : referenceNewestFirst) as unknown as (a: Row, b: Row) => number;
    for (let i = 1; i < rows.length; i++) {
      expect(compare(rows[i - 1] as Row, rows[i] as Row), `${rows[i - 1]?.id} before ${rows[i]?.id}`).toBeLessThan(0);
    }
  });

  it('lists the default page of 25 and accepts 1 and 100; account A needs several pages', async () => {
    const total = everything.get(`A ${path}`)?.length ?? 0;
    const page = await call(app, path);
    expect(page.json.data).toHaveLength(25);
    expect(page.json.has_more, 'SANDBOX.md: every list needs several pages').toBe(true);
    expect((await call(app, `${path}?limit=1`)).json.data).toHaveLength(1);
    expect((await call(app, `${path}?limit=100`)).json.data).toHaveLength(Math.min(100, total));
  });

  it.each(['0', '101', '-1', '2.5', 'ten', '', '1e2'])('refuses limit=%s with 400 naming limit', async (limit) => {
    const result = await call(app, `${path}?limit=${limit}`);
    expect(result.status, result.text).toBe(400);
    expect(result.json.error).toMatchObject({ code: 'parameter_invalid', param: 'limit', type: 'invalid_request_error' });
  });

  it('refuses a starting_after that is not a record of this list in this account', async () => {
    const foreign = everything.get(`B ${path}`)?.[0]?.id ?? 'x';
    for (const value of ['nope', foreign, 'evt_00000000000000']) {
      const result = await call(app, `${path}?starting_after=${value}`);
      expect(result.status, result.text).toBe(400);
      expect(result.json.error).toMatchObject({ code: 'parameter_invalid', param: 'starting_after' });
    }
  });

  it('refuses unknown and repeated query parameters', async () => {
    const unknown = await call(app, `${path}?colour=red`);
    expect(unknown.status, unknown.text).toBe(400);
    expect(unknown.json.error).toMatchObject({ code: 'parameter_invalid', param: 'colour' });
    const repeated = await call(app, `${path}?limit=2&limit=3`);
    expect(repeated.status, repeated.text).toBe(400);
    expect(repeated.json.error).toMatchObject({ code: 'parameter_invalid', param: 'limit' });
  });

  const filters = filtersOf(endpoint);
  if (filters.length === 0) return;

  it.each(filters)('filter %s returns exactly the matching records, page by page', async (filter) => {
    const rows = everything.get(`A ${path}`) ?? [];
    const values =
      filter === 'scheduled_from'
        ? ['2026-03-02', '2025-12-01', '2026-04-15']
        : [...new Set(rows.map((row) => row[filter]).filter((value): value is string => typeof value === 'string'))];
    expect(values.length, `sample data offers values for ${filter}`).toBeGreaterThan(0);
    for (const value of values.slice(0, 6)) {
      const expected =
        filter === 'scheduled_from'
          ? rows.filter((row) => typeof row.scheduled_for === 'string' && row.scheduled_for >= value)
          : rows.filter((row) => row[filter] === value);
      const { rows: got } = await walk(`${path}?${filter}=${value}`, PUBLIC_KEY, 10);
      expect(
        got.map((row) => row.id),
        `${filter}=${value}`,
      ).toEqual(expected.map((row) => row.id));
    }
  });

  it.each(filters)('filter %s refuses a value of the wrong form with 400 naming it', async (filter) => {
    const result = await call(app, `${path}?${filter}=not-a-valid-value`);
    expect(result.status, result.text).toBe(400);
    expect(result.json.error).toMatchObject({ code: 'parameter_invalid', param: filter });
  });
});

describe('paging with filters', () => {
  it('continues after the starting_after record even when the filter excludes it', async () => {
    const jobs = everything.get('A /v1/jobs') ?? [];
    const anchor = jobs.find((job) => job.status !== 'scheduled') as Row;
    const after = jobs.slice(jobs.indexOf(anchor) + 1).filter((job) => job.status === 'scheduled');
    const { rows } = await walk(`/v1/jobs?status=scheduled&starting_after=${anchor.id}`, PUBLIC_KEY, 100);
    expect(rows.map((row) => row.id)).toEqual(after.map((row) => row.id));
  });

  it('filters combine', async () => {
    const jobs = everything.get('A /v1/jobs') ?? [];
    const sample = jobs.find((job) => job.status === 'closed') as Row;
    const expected = jobs.filter((job) => job.status === 'closed' && job.client === sample.client && job.type === sample.type);
    const { rows } = await walk(`/v1/jobs?status=closed&client=${sample.client}&type=${sample.type}`, PUBLIC_KEY, 100);
    expect(rows.map((row) => row.id)).toEqual(expected.map((row) => row.id));
  });

  it('an unknown but well-formed ID filter matches nothing', async () => {
    const result = await call(app, '/v1/sites?client=cli_00000000000000');
    expect(result.status, result.text).toBe(200);
    expect(result.json).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
  });

  it('lists return the same full records as GET by ID', async () => {
    for (const [path, key] of [
      ['/v1/jobs', 'jobs'],
      ['/v1/manifests', 'manifests'],
      ['/v1/events', 'events'],
    ] as const) {
      const first = everything.get(`A ${path}`)?.[0] as Row;
      const single = await call(app, `/v1/${key}/${first.id}`);
      expect(single.json).toEqual(first);
    }
  });
});

describe('the ID filters of the reference ("Endpoints")', () => {
  // Transcribed from the reference, not read from the sandbox's schemas: the list, its ID filter,
  // and the object the ID names (words as the message gives them; prefix as "Conventions" has it).
  const ID_FILTERS = [
    ['/v1/sites', 'client', 'client', 'cli_'],
    ['/v1/waste_profiles', 'client', 'client', 'cli_'],
    ['/v1/jobs', 'client', 'client', 'cli_'],
    ['/v1/containers', 'job', 'job', 'job_'],
    ['/v1/manifests', 'job', 'job', 'job_'],
    ['/v1/invoices', 'client', 'client', 'cli_'],
  ] as const;

  it.each(ID_FILTERS)("%s?%s= takes the ID of a record's %s, and only an ID of that type", async (path, filter, words, prefix) => {
    const app = testApp();
    const page = await call(app, `${path}?limit=100`);
    const value = (page.json.data as Row[]).map((row) => row[filter]).find((id) => typeof id === 'string') as string;
    expect(value, `account A has a ${filter} to filter ${path} by`).toMatch(new RegExp(`^${prefix}`));
    const filtered = await call(app, `${path}?${filter}=${value}&limit=100`);
    expect(filtered.status, filtered.text).toBe(200);
    expect(filtered.json.data.length).toBeGreaterThan(0);
    for (const row of filtered.json.data) expect(row[filter]).toBe(value);
    const other = await call(app, `${path}?${filter}=site_abc`);
    expect(other.status, other.text).toBe(400);
    expect(other.json.error).toMatchObject({
      code: 'parameter_invalid',
      param: filter,
      message: `Invalid ${filter}: must be the ID of a ${words}, which begins with ${prefix}; received "site_abc".`,
    });
  });
});
