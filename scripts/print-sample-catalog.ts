// Prints the sample catalog of docs/sample-data.md: one well-known ID per resource and state, from
// the default seed (or the seed given as the first argument), with the records each one belongs
// to (a site's client, a job's client and site; a client's first site), so IDs can be combined in a
// request.
// "Well-known" is the first record of that kind in the API's own list order, so it is also what a
// reader sees on page one.
//
//   npx tsx scripts/print-sample-catalog.ts [seed]
import { DEFAULT_SEED, type AccountData } from '../src/data/dataset.js';
import { generateSampleData } from '../src/data/generate/index.js';
import { newestFirst, soonestFirst } from '../src/data/store.js';
import { EVENT_TYPES } from '../src/resources/events/types.js';

const seed = process.argv[2] ?? DEFAULT_SEED;
const data = generateSampleData(seed);

interface Row {
  resource: string;
  state: string;
  id: string;
  note: string;
  goesWith: string;
}

/**
 * The records a record goes with, as the catalog's last column shows them: those it points at
 * (`client cli_…, site site_…`), or for a client its first site, the pair a new job needs.
 */
function goesWith(account: 'A' | 'B', record: object): string {
  const fields = record as Record<string, unknown>;
  if (typeof fields.id === 'string' && fields.id.startsWith('cli_')) {
    const site = [...data.accounts[account].sites].sort(newestFirst).find((candidate) => candidate.client === fields.id);
    return site === undefined ? 'no site' : `site \`${site.id}\``;
  }
  return (['client', 'site', 'job'] as const)
    .filter((field) => typeof fields[field] === 'string')
    .map((field) => `${field} \`${fields[field] as string}\``)
    .join(', ');
}

const rows: Row[] = [];

function add<T extends { id: string; created_at: string }>(
  account: 'A' | 'B',
  resource: keyof AccountData,
  state: string,
  records: readonly T[],
  matches: (record: T) => boolean,
  note: (record: T) => string = () => '',
  order: (a: T, b: T) => number = newestFirst,
): void {
  const found = [...records].sort(order).find(matches);
  rows.push({
    resource: account === 'A' ? resource : `${resource} (account B)`,
    state,
    id: found?.id ?? '(none)',
    note: found ? note(found) : 'no such record for this seed',
    goesWith: found ? goesWith(account, found) : '',
  });
}

const a = data.accounts.A;
const b = data.accounts.B;

for (const kind of ['hhw_program', 'commercial_industrial', 'laboratory'] as const) {
  add(
    'A',
    'clients',
    kind,
    a.clients,
    (client) => client.kind === kind,
    (client) => client.name,
  );
}
add(
  'A',
  'clients',
  'without EPA ID',
  a.clients,
  (client) => client.epa_id === null,
  (client) => client.name,
);
add(
  'A',
  'sites',
  'with EPA ID',
  a.sites,
  (site) => site.epa_id !== null,
  (site) => `${site.name}, ${site.address.city} ${site.address.state}`,
);
add(
  'A',
  'sites',
  'without EPA ID',
  a.sites,
  (site) => site.epa_id === null,
  (site) => `${site.name}, ${site.address.city} ${site.address.state}`,
);

for (const status of ['draft', 'submitted', 'approved', 'expired'] as const) {
  add(
    'A',
    'waste_profiles',
    status,
    a.waste_profiles,
    (profile) => profile.status === status,
    (profile) => profile.name,
  );
}

const jobNote = (job: AccountData['jobs'][number]) =>
  `${job.type}, ${job.scheduled_for ?? 'no date'}${job.window ? ` ${job.window.start}–${job.window.end}` : ''}, ${job.container_count} containers`;
add(
  'A',
  'jobs',
  'draft, no date or window',
  a.jobs,
  (job) => job.status === 'draft' && job.scheduled_for === null && job.window === null,
  jobNote,
  soonestFirst,
);
add('A', 'jobs', 'draft, date only', a.jobs, (job) => job.status === 'draft' && job.scheduled_for !== null, jobNote, soonestFirst);
for (const status of ['scheduled', 'in_progress', 'closed', 'billed'] as const) {
  add('A', 'jobs', status, a.jobs, (job) => job.status === status, jobNote, soonestFirst);
}
add(
  'A',
  'jobs',
  'cancelled (was scheduled)',
  a.jobs,
  (job) => job.status === 'cancelled' && job.scheduled_for !== null,
  jobNote,
  soonestFirst,
);
add(
  'A',
  'jobs',
  'cancelled (was a draft)',
  a.jobs,
  (job) => job.status === 'cancelled' && job.scheduled_for === null,
  jobNote,
  soonestFirst,
);

for (const status of ['open', 'full', 'received', 'consolidated', 'shipped'] as const) {
  add(
    'A',
    'containers',
    status,
    a.containers,
    (container) => container.status === status,
    (container) => `${container.kind}, ${container.weight_lb} lb`,
  );
}
add(
  'A',
  'containers',
  'open, contents not yet profiled',
  a.containers,
  (container) => container.profile === null,
  (container) => container.kind,
);
add(
  'A',
  'containers',
  'storage at_limit',
  a.containers,
  (container) => container.storage_status === 'at_limit',
  (container) => `${container.status}, received ${container.received_at}`,
);

for (const status of ['draft', 'ready_for_signature', 'submitted', 'signed', 'corrected'] as const) {
  add(
    'A',
    'manifests',
    status,
    a.manifests,
    (manifest) => manifest.status === status,
    (manifest) =>
      `${manifest.submission_type}, ${manifest.manifest_tracking_number ?? 'no tracking number'}, ${manifest.lines.length} line(s)`,
  );
}

const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;
for (const status of ['draft', 'open', 'paid', 'void'] as const) {
  add(
    'A',
    'invoices',
    status,
    a.invoices,
    (invoice) => invoice.status === status,
    (invoice) => `${invoice.number}, ${money(invoice.amount_due)}, ${invoice.jobs.length} job(s)`,
  );
}
add(
  'A',
  'invoices',
  'several jobs',
  a.invoices,
  (invoice) => invoice.jobs.length > 1,
  (invoice) => `${invoice.number}, ${invoice.jobs.length} jobs`,
);

add(
  'A',
  'webhook_endpoints',
  'enabled, all events',
  a.webhook_endpoints,
  (endpoint) => endpoint.enabled && endpoint.events[0] === '*',
  (endpoint) => endpoint.url,
);
add(
  'A',
  'webhook_endpoints',
  'disabled',
  a.webhook_endpoints,
  (endpoint) => !endpoint.enabled,
  (endpoint) => endpoint.url,
);

for (const type of EVENT_TYPES) {
  add(
    'A',
    'events',
    type,
    a.events,
    (event) => event.type === type,
    (event) => `${event.data.object.id} at ${event.created_at}`,
  );
}

add(
  'B',
  'clients',
  'any',
  b.clients,
  () => true,
  (client) => client.name,
);
add('B', 'jobs', 'any', b.jobs, () => true, jobNote, soonestFirst);

const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
console.log(`Sample catalog, seed \`${seed}\` (account A unless noted)\n`);
console.log(line(['resource', 'state', 'ID', 'what it is', 'goes with']));
console.log(line(['---', '---', '---', '---', '---']));
for (const row of rows) console.log(line([row.resource, row.state, `\`${row.id}\``, row.note, row.goesWith]));
