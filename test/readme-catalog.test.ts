// The README and docs/sample-data.md quote sample IDs for docs and CI; this keeps every quoted ID,
// and every relation the catalog states (a site's client, a job's client and site), true to the data.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COLLECTIONS } from '../src/data/prebuilt.js';
import { call, OTHER_KEY, PUBLIC_KEY, testApp } from './helpers.js';
import { ENUMS } from './reference/resources.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const guide = readFileSync(new URL('../docs/sample-data.md', import.meta.url), 'utf8');
const app = testApp();

type Row = Record<string, unknown>;

/**
 * What each state the catalog names means of the record. A state that is an enum value of the
 * reference is checked against the record's status, kind, type or storage status; every other
 * state needs its own check here, or the row fails: no row goes unchecked.
 */
const STATE_CHECKS: Record<string, (record: Row) => boolean> = {
  'without EPA ID': (record) => record.epa_id === null,
  'with EPA ID': (record) => typeof record.epa_id === 'string',
  'draft, no date or window': (record) => record.status === 'draft' && record.scheduled_for === null && record.window === null,
  'draft, date only': (record) => record.status === 'draft' && typeof record.scheduled_for === 'string' && record.window === null,
  'cancelled (was scheduled)': (record) =>
    record.status === 'cancelled' && typeof record.scheduled_for === 'string' && record.window !== null,
  'cancelled (was a draft)': (record) => record.status === 'cancelled' && record.scheduled_for === null,
  'open, contents not yet profiled': (record) => record.status === 'open' && record.profile === null,
  'storage at_limit': (record) => record.storage_status === 'at_limit',
  'several jobs': (record) => Array.isArray(record.jobs) && record.jobs.length > 1,
  'enabled, all events': (record) => record.enabled === true && JSON.stringify(record.events) === '["*"]',
  disabled: (record) => record.enabled === false,
  // Account B's rows name a record of that account, of no particular state.
  any: () => true,
};
const ENUM_VALUES = new Set<string>(ENUMS.flatMap((entry) => entry.values));

function stateHolds(state: string, record: Row): boolean {
  if (ENUM_VALUES.has(state)) return [record.status, record.kind, record.type, record.storage_status].includes(state);
  const check = STATE_CHECKS[state];
  if (check === undefined) throw new Error(`the catalog's state "${state}" has no check in test/readme-catalog.test.ts: add one`);
  return check(record);
}

const rows = [...guide.matchAll(/^\| (\w+)( \(account B\))? \| ([^|]+) \| `(\w+)` \| ([^|]*) \| ([^|]*) \|$/gm)].map((match) => ({
  resource: match[1] as string,
  key: match[2] ? OTHER_KEY : PUBLIC_KEY,
  state: (match[3] as string).trim(),
  id: match[4] as string,
  /** "client `cli_…`, site `site_…`": the records it points at, or for a client one of its sites. */
  goesWith: [...(match[6] as string).matchAll(/(\w+) `(\w+)`/g)].map(([, field, id]) => ({ field: field as string, id: id as string })),
}));

describe('the README catalog', () => {
  it('reads every row of the catalog: a row the pattern misses fails here rather than go unchecked', () => {
    const catalogLines = guide
      .split('\n')
      .filter((line) => /^\| [^|]+ \| [^|]+ \| `(cli|site|prof|job|cont|man|inv|we|evt)_\w+` \|/.test(line));
    expect(catalogLines.length).toBeGreaterThan(40);
    expect(rows).toHaveLength(catalogLines.length);
  });

  it('lists an ID for every resource', () => {
    const resources = new Set(rows.map((row) => row.resource));
    for (const resource of COLLECTIONS) {
      expect(resources, resource).toContain(resource);
    }
  });

  it.each(rows.map((row) => [`${row.resource} ${row.state}`, row] as const))('%s exists in that state', async (_, row) => {
    let record: Row;
    if (row.resource === 'webhook_endpoints') {
      // The reference has no GET by ID for webhook endpoints: find it in the list.
      const list = await call(app, '/v1/webhook_endpoints?limit=100', { key: row.key });
      record = list.json.data.find((endpoint: { id: string }) => endpoint.id === row.id);
      expect(record, row.id).toBeDefined();
    } else {
      const result = await call(app, `/v1/${row.resource}/${row.id}`, { key: row.key });
      expect(result.status, result.text).toBe(200);
      record = result.json;
    }
    expect(stateHolds(row.state, record), `${row.id} is "${row.state}"`).toBe(true);
    for (const related of row.goesWith) {
      if (row.resource === 'clients') {
        // A client's site: that site belongs to the client, so the two make a job together.
        const site = await call(app, `/v1/sites/${related.id}`, { key: row.key });
        expect(site.json.client, `${row.id}'s site ${related.id}`).toBe(row.id);
      } else {
        expect(record[related.field], `${row.id}'s ${related.field}`).toBe(related.id);
      }
    }
  });

  it('states what every site and job goes with', () => {
    for (const row of rows.filter((candidate) => candidate.resource === 'sites' || candidate.resource === 'jobs')) {
      expect(row.goesWith.map((related) => related.field).sort(), row.id).toEqual(
        row.resource === 'sites' ? ['client'] : ['client', 'site'],
      );
    }
  });

  it('quotes in the examples only IDs of account A that exist', async () => {
    const examples = `${readme.split('## Keys')[0] as string}${guide.split('## A body for every create endpoint')[1] as string}`;
    const ids = [...new Set(examples.match(/\b(cli|site|job|cont|man|inv|we|evt|prof)_[0-9A-Za-z]{14}\b/g))];
    expect(ids.length).toBeGreaterThan(0);
    const collections: Record<string, string> = {
      cli: 'clients',
      site: 'sites',
      job: 'jobs',
      cont: 'containers',
      man: 'manifests',
      inv: 'invoices',
      evt: 'events',
      prof: 'waste_profiles',
    };
    for (const id of ids) {
      const result = await call(app, `/v1/${collections[id.split('_')[0] as string]}/${id}`);
      expect(result.status, `${id}: ${result.text}`).toBe(200);
    }
  });
});
