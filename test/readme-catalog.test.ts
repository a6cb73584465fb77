// The README and docs/sample-data.md quote sample IDs for docs and CI; this keeps every quoted ID,
// and every relation the catalog states (a site's client, a job's client and site), true to the data.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COLLECTIONS } from '../src/data/prebuilt.js';
import { CLIENT_KINDS } from '../src/resources/clients/schema.js';
import { CONTAINER_STATUSES, STORAGE_STATUSES } from '../src/resources/containers/schema.js';
import { EVENT_TYPES } from '../src/resources/events/types.js';
import { INVOICE_STATUSES } from '../src/resources/invoices/schema.js';
import { JOB_STATUSES } from '../src/resources/jobs/schema.js';
import { MANIFEST_STATUSES } from '../src/resources/manifests/schema.js';
import { PROFILE_STATUSES } from '../src/resources/waste_profiles/schema.js';
import { call, OTHER_KEY, PUBLIC_KEY, testApp } from './helpers.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const guide = readFileSync(new URL('../docs/sample-data.md', import.meta.url), 'utf8');
const app = testApp();

const STATES = new Set<string>([
  ...CLIENT_KINDS,
  ...CONTAINER_STATUSES,
  ...STORAGE_STATUSES,
  ...EVENT_TYPES,
  ...INVOICE_STATUSES,
  ...JOB_STATUSES,
  ...MANIFEST_STATUSES,
  ...PROFILE_STATUSES,
]);

const rows = [...guide.matchAll(/^\| (\w+)( \(account B\))? \| ([^|]+) \| `(\w+)` \| ([^|]*) \| ([^|]*) \|$/gm)].map((match) => ({
  resource: match[1] as string,
  key: match[2] ? OTHER_KEY : PUBLIC_KEY,
  state: (match[3] as string).trim(),
  id: match[4] as string,
  /** "client `cli_…`, site `site_…`": the records it points at, or for a client one of its sites. */
  goesWith: [...(match[6] as string).matchAll(/(\w+) `(\w+)`/g)].map(([, field, id]) => ({ field: field as string, id: id as string })),
}));

describe('the README catalog', () => {
  it('lists an ID for every resource', () => {
    const resources = new Set(rows.map((row) => row.resource));
    for (const resource of COLLECTIONS) {
      expect(resources, resource).toContain(resource);
    }
  });

  it.each(rows.map((row) => [`${row.resource} ${row.state}`, row] as const))('%s exists in that state', async (_, row) => {
    let record: Record<string, unknown>;
    if (row.resource === 'webhook_endpoints') {
      // The reference has no GET by ID for webhook endpoints: find it in the list.
      const list = await call(app, '/v1/webhook_endpoints?limit=100', { key: row.key });
      record = list.json.data.find((endpoint: { id: string }) => endpoint.id === row.id);
      expect(record, row.id).toBeDefined();
      expect(record.enabled).toBe(!row.state.startsWith('disabled'));
    } else {
      const result = await call(app, `/v1/${row.resource}/${row.id}`, { key: row.key });
      expect(result.status, result.text).toBe(200);
      record = result.json;
    }
    // The state column starts with the record's status, kind or event type where it names one.
    const word = row.state.split(/[ ,]/)[0] as string;
    if (STATES.has(word)) expect([record.status, record.kind, record.type, record.storage_status]).toContain(word);
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
