// The invariant suite of the sample data (STYLE.md habit 6): every record of both accounts
// parses strictly with its schema, and the data holds together as SANDBOX.md ("Sample data",
// "Readings of the reference", "State rules beyond the reference") says it must.
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import containerKinds from '../fixtures/container-kinds.json' with { type: 'json' };
import crewRoles from '../fixtures/crew-roles.json' with { type: 'json' };
import facilities from '../fixtures/facilities.json' with { type: 'json' };
import wasteStreams from '../fixtures/waste-streams.json' with { type: 'json' };
import { DEFAULT_SEED, SAMPLE_NOW, type AccountData, type AccountName } from '../src/data/dataset.js';
import { generateSampleData } from '../src/data/generate/index.js';
import { isKnownWasteCode } from '../src/data/waste-codes.js';
import { CLIENT_KINDS, Client } from '../src/resources/clients/schema.js';
import { CONTAINER_STATUSES, Container, STORAGE_STATUSES } from '../src/resources/containers/schema.js';
import { isReceived } from '../src/resources/containers/transitions.js';
import { Event } from '../src/resources/events/schema.js';
import { EVENT_OBJECTS, EVENT_TYPES, type EventType } from '../src/resources/events/types.js';
import { INVOICE_STATUSES, Invoice } from '../src/resources/invoices/schema.js';
import { JOB_STATUSES, JOB_TYPES, Job } from '../src/resources/jobs/schema.js';
import {
  CANCELLABLE_JOB_STATUSES,
  JOB_STATUSES_WITH_CONTAINERS,
  JOB_STATUSES_WITH_INVOICE,
  statusForSchedule,
} from '../src/resources/jobs/transitions.js';
import { buildManifestLines } from '../src/resources/manifests/lines.js';
import { MANIFEST_STATUSES, Manifest, SUBMISSION_TYPES } from '../src/resources/manifests/schema.js';
import { Site } from '../src/resources/sites/schema.js';
import { PROFILE_STATUSES, WasteProfile } from '../src/resources/waste_profiles/schema.js';
import { hasApprover } from '../src/resources/waste_profiles/transitions.js';
import { WebhookEndpoint } from '../src/resources/webhook_endpoints/schema.js';
import { EpaId } from '../src/schemas/common.js';

// SANDBOX_SEED chooses the seed of a deployment (SANDBOX.md, "Configuration"): run this suite
// with SAMPLE_DATA_SEED=<seed> to check the data of another seed holds together too.
const SEED = process.env.SAMPLE_DATA_SEED ?? DEFAULT_SEED;
// How long it takes is measured by `npm run bench`, never here: a bound in a test measures the machine.
const data = generateSampleData(SEED);

const ACCOUNTS: AccountName[] = ['A', 'B'];
const TODAY = SAMPLE_NOW.slice(0, 10);
const DAY_MS = 86_400_000;
const TEN_WEEKS_AHEAD = new Date(Date.parse(SAMPLE_NOW) + 71 * DAY_MS).toISOString().slice(0, 10);

const SCHEMAS = {
  clients: Client,
  sites: Site,
  waste_profiles: WasteProfile,
  jobs: Job,
  containers: Container,
  manifests: Manifest,
  invoices: Invoice,
  webhook_endpoints: WebhookEndpoint,
  events: Event,
} as const satisfies Record<keyof AccountData, () => z.ZodType>;

const SNAPSHOT_SCHEMAS = {
  job: Job,
  container: Container,
  manifest: Manifest,
  waste_profile: WasteProfile,
  invoice: Invoice,
} as const;

const COLLECTION_OF_OBJECT = {
  job: 'jobs',
  container: 'containers',
  manifest: 'manifests',
  waste_profile: 'waste_profiles',
  invoice: 'invoices',
} as const;

const FACILITY_NAMES = new Set(facilities.map((facility) => facility.name));
const ROLES = new Set(crewRoles.map((role) => role.role));
const KINDS = new Set(containerKinds.map((kind) => kind.kind));

function byId<T extends { id: string }>(records: readonly T[]): Map<string, T> {
  return new Map(records.map((record) => [record.id, record]));
}

function countBy<T>(records: readonly T[], key: (record: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const record of records) counts.set(key(record), (counts.get(key(record)) ?? 0) + 1);
  return counts;
}

/** Collects every broken rule of a check so a failure lists them all, not only the first. */
function violations(check: (fail: (message: string) => void) => void): string[] {
  const found: string[] = [];
  check((message) => found.push(message));
  return found.slice(0, 25);
}

function allIds(account: AccountData): string[] {
  return Object.values(account).flatMap((records: readonly { id: string }[]) => records.map((record) => record.id));
}

describe('sample data generation', () => {
  it('keeps every ID unique, and account B disjoint from account A', () => {
    const a = allIds(data.accounts.A);
    const b = allIds(data.accounts.B);
    expect(new Set(a).size).toBe(a.length);
    expect(new Set(b).size).toBe(b.length);
    const inA = new Set(a);
    expect(b.filter((id) => inA.has(id))).toEqual([]);
  });

  it('gives account A at least the documented counts', () => {
    const counts = Object.fromEntries(Object.entries(data.accounts.A).map(([name, records]) => [name, records.length]));
    expect(counts.clients).toBeGreaterThanOrEqual(12);
    expect(counts.sites).toBeGreaterThanOrEqual(40);
    expect(counts.waste_profiles).toBeGreaterThanOrEqual(60);
    expect(counts.jobs).toBeGreaterThanOrEqual(200);
    expect(counts.containers).toBeGreaterThanOrEqual(1500);
    expect(counts.manifests).toBeGreaterThanOrEqual(100);
    expect(counts.invoices).toBeGreaterThanOrEqual(100);
    expect(counts.webhook_endpoints).toBeGreaterThanOrEqual(5);
    expect(counts.events).toBeGreaterThanOrEqual(500);
  });

  it('gives account B a smaller set of its own', () => {
    const a = data.accounts.A;
    const b = data.accounts.B;
    expect(b.clients.length).toBeGreaterThanOrEqual(3);
    expect(b.sites.length).toBeGreaterThanOrEqual(6);
    expect(b.waste_profiles.length).toBeGreaterThanOrEqual(8);
    expect(b.jobs.length).toBeGreaterThanOrEqual(20);
    expect(b.containers.length).toBeGreaterThanOrEqual(100);
    expect(b.manifests.length).toBeGreaterThanOrEqual(6);
    expect(b.invoices.length).toBeGreaterThanOrEqual(6);
    expect(b.webhook_endpoints.length).toBeGreaterThanOrEqual(2);
    expect(b.events.length).toBeGreaterThanOrEqual(40);
    for (const name of Object.keys(SCHEMAS) as (keyof AccountData)[]) {
      expect(b[name].length, name).toBeLessThan(a[name].length);
    }
  });
});

describe('account A shows every value of every enum', () => {
  const a = data.accounts.A;
  const cases: [string, readonly string[], () => Iterable<string | null>][] = [
    ['client kind', CLIENT_KINDS, () => a.clients.map((client) => client.kind)],
    ['profile status', PROFILE_STATUSES, () => a.waste_profiles.map((profile) => profile.status)],
    ['job type', JOB_TYPES, () => a.jobs.map((job) => job.type)],
    ['job status', JOB_STATUSES, () => a.jobs.map((job) => job.status)],
    ['container status', CONTAINER_STATUSES, () => a.containers.map((container) => container.status)],
    ['storage status', STORAGE_STATUSES, () => a.containers.map((container) => container.storage_status)],
    ['manifest status', MANIFEST_STATUSES, () => a.manifests.map((manifest) => manifest.status)],
    ['submission type', SUBMISSION_TYPES, () => a.manifests.map((manifest) => manifest.submission_type)],
    ['invoice status', INVOICE_STATUSES, () => a.invoices.map((invoice) => invoice.status)],
    ['event type', EVENT_TYPES, () => a.events.map((event) => event.type)],
  ];
  it.each(cases)('every %s', (_, values, seen) => {
    const present = new Set(seen());
    expect(values.filter((value) => !present.has(value))).toEqual([]);
  });

  it('has records in the states docs quote', () => {
    const draftJobs = a.jobs.filter((job) => job.status === 'draft');
    expect(draftJobs.some((job) => job.scheduled_for === null && job.window === null)).toBe(true);
    expect(draftJobs.some((job) => (job.scheduled_for === null) !== (job.window === null))).toBe(true);
    const cancelled = a.jobs.filter((job) => job.status === 'cancelled');
    expect(cancelled.some((job) => job.scheduled_for === null)).toBe(true);
    expect(cancelled.some((job) => job.scheduled_for !== null && job.window !== null)).toBe(true);
    expect(a.jobs.some((job) => job.status === 'closed' && job.invoice !== null)).toBe(true);
    const scheduledCrew = a.jobs.filter((job) => job.status === 'scheduled').flatMap((job) => job.crew);
    expect(scheduledCrew.some((member) => member.accepted)).toBe(true);
    expect(scheduledCrew.some((member) => !member.accepted)).toBe(true);
    expect(a.containers.some((container) => container.status === 'open' && container.profile === null)).toBe(true);
    expect(a.containers.some((container) => container.status === 'open' && container.profile !== null)).toBe(true);
    expect(a.invoices.some((invoice) => invoice.jobs.length > 1)).toBe(true);
    expect(a.clients.some((client) => client.epa_id === null)).toBe(true);
    expect(a.clients.some((client) => client.billing_email === null)).toBe(true);
    expect(a.webhook_endpoints.some((endpoint) => !endpoint.enabled)).toBe(true);
    expect(a.webhook_endpoints.some((endpoint) => endpoint.events[0] === '*')).toBe(true);
    expect(a.webhook_endpoints.some((endpoint) => endpoint.events[0] !== '*')).toBe(true);
  });
});

describe('fixtures the generator draws from', () => {
  it('waste streams: known codes, known container kinds, valid client kinds', () => {
    const found = violations((fail) => {
      const keys = new Set<string>();
      for (const stream of wasteStreams) {
        if (keys.has(stream.key)) fail(`${stream.key}: duplicate key`);
        keys.add(stream.key);
        const codes = [...stream.federal_codes, ...Object.values(stream.state_codes).flat()];
        if (codes.length === 0) fail(`${stream.key}: no codes at all`);
        for (const code of codes) if (!isKnownWasteCode(code)) fail(`${stream.key}: unknown code ${code}`);
        for (const kind of stream.container_kinds) if (!KINDS.has(kind)) fail(`${stream.key}: unknown kind ${kind}`);
        for (const kind of stream.client_kinds) {
          if (!(CLIENT_KINDS as readonly string[]).includes(kind)) fail(`${stream.key}: unknown client kind ${kind}`);
        }
        if (!/^(UN|NA)\d{4}, |^Non-DOT regulated material \(/.test(stream.dot_description)) {
          fail(`${stream.key}: DOT description ${stream.dot_description}`);
        }
      }
    });
    expect(found).toEqual([]);
    expect(wasteStreams.length).toBeGreaterThanOrEqual(40);
  });

  it('facilities: unique names, EPA IDs of the reference form in their own state', () => {
    expect(FACILITY_NAMES.size).toBe(facilities.length);
    for (const facility of facilities) {
      expect(EpaId().safeParse(facility.epa_id).success, facility.epa_id).toBe(true);
      expect(facility.epa_id.slice(0, 2)).toBe(facility.address.state);
    }
  });

  it('container kinds have a sensible weight range; crew roles are distinct', () => {
    for (const kind of containerKinds) {
      expect(kind.net_weight_lb.min).toBeGreaterThan(0);
      expect(kind.net_weight_lb.max).toBeGreaterThan(kind.net_weight_lb.min);
    }
    expect(ROLES.size).toBe(crewRoles.length);
  });
});

describe.each(ACCOUNTS)('account %s', (name) => {
  const account = data.accounts[name];
  const clients = byId(account.clients);
  const sites = byId(account.sites);
  const profiles = byId(account.waste_profiles);
  const jobs = byId(account.jobs);
  const containers = byId(account.containers);
  const manifests = byId(account.manifests);
  const invoices = byId(account.invoices);
  const containersOfJob = new Map<string, Container[]>();
  for (const container of [...account.containers].sort((x, y) =>
    x.created_at !== y.created_at ? (x.created_at < y.created_at ? -1 : 1) : x.id < y.id ? -1 : 1,
  )) {
    containersOfJob.set(container.job, [...(containersOfJob.get(container.job) ?? []), container]);
  }

  it.each(Object.keys(SCHEMAS) as (keyof AccountData)[])('every %s record parses strictly with its schema', (collection) => {
    const schema: z.ZodType = SCHEMAS[collection]();
    const found = violations((fail) => {
      for (const record of account[collection]) {
        const result = schema.safeParse(record);
        if (!result.success) fail(`${record.id}: ${result.error.message}`);
        else expect(result.data).toEqual(record);
      }
    });
    expect(found).toEqual([]);
  });

  it('every timestamp is at or before the sample clock; created_at ≤ updated_at', () => {
    const found = violations((fail) => {
      for (const records of Object.values(account) as { id: string; created_at: string; updated_at?: string }[][]) {
        for (const record of records) {
          if (record.created_at > SAMPLE_NOW) fail(`${record.id}: created_at ${record.created_at}`);
          if (record.updated_at !== undefined) {
            if (record.updated_at > SAMPLE_NOW) fail(`${record.id}: updated_at ${record.updated_at}`);
            if (record.updated_at < record.created_at) fail(`${record.id}: updated_at before created_at`);
          }
        }
      }
      for (const container of account.containers) {
        if (container.received_at !== null && (container.received_at > SAMPLE_NOW || container.received_at < container.created_at)) {
          fail(`${container.id}: received_at ${container.received_at}`);
        }
      }
    });
    expect(found).toEqual([]);
  });

  it('created_at values are mostly distinct', () => {
    for (const records of Object.values(account) as { created_at: string }[][]) {
      const distinct = new Set(records.map((record) => record.created_at)).size;
      expect(distinct / records.length).toBeGreaterThan(0.97);
    }
  });

  it('every reference points at a record of the same account', () => {
    const found = violations((fail) => {
      for (const site of account.sites) if (!clients.has(site.client)) fail(`${site.id}: client ${site.client}`);
      for (const profile of account.waste_profiles) if (!clients.has(profile.client)) fail(`${profile.id}: client`);
      for (const job of account.jobs) {
        if (!clients.has(job.client)) fail(`${job.id}: client ${job.client}`);
        const site = sites.get(job.site);
        if (!site) fail(`${job.id}: site ${job.site}`);
        else if (site.client !== job.client) fail(`${job.id}: site ${site.id} belongs to another client`);
        if (job.invoice !== null && !invoices.has(job.invoice)) fail(`${job.id}: invoice ${job.invoice}`);
      }
      for (const container of account.containers) {
        const job = jobs.get(container.job);
        if (!job) fail(`${container.id}: job ${container.job}`);
        if (container.profile !== null) {
          const profile = profiles.get(container.profile);
          if (!profile) fail(`${container.id}: profile ${container.profile}`);
          else if (job && profile.client !== job.client) fail(`${container.id}: profile of another client`);
        }
      }
      for (const manifest of account.manifests) if (!jobs.has(manifest.job)) fail(`${manifest.id}: job ${manifest.job}`);
      for (const invoice of account.invoices) {
        if (!clients.has(invoice.client)) fail(`${invoice.id}: client`);
        for (const job of invoice.jobs) if (!jobs.has(job)) fail(`${invoice.id}: job ${job}`);
      }
      for (const event of account.events) {
        const object = event.data.object;
        const collection = COLLECTION_OF_OBJECT[object.object];
        const records: ReadonlyMap<string, unknown> = { jobs, containers, manifests, waste_profiles: profiles, invoices }[collection];
        if (!records.has(object.id)) fail(`${event.id}: ${object.object} ${object.id} is not in the account`);
      }
    });
    expect(found).toEqual([]);
  });

  it('records are created after the records they point at', () => {
    const found = violations((fail) => {
      const createdAfter = (id: string, createdAt: string, parent: { id: string; created_at: string } | undefined) => {
        if (parent && createdAt < parent.created_at) fail(`${id}: created before ${parent.id}`);
      };
      for (const profile of account.waste_profiles) createdAfter(profile.id, profile.created_at, clients.get(profile.client));
      for (const job of account.jobs) {
        createdAfter(job.id, job.created_at, clients.get(job.client));
        createdAfter(job.id, job.created_at, sites.get(job.site));
      }
      for (const container of account.containers) {
        createdAfter(container.id, container.created_at, jobs.get(container.job));
        if (container.profile !== null) createdAfter(container.id, container.created_at, profiles.get(container.profile));
      }
      for (const manifest of account.manifests) createdAfter(manifest.id, manifest.created_at, jobs.get(manifest.job));
      for (const invoice of account.invoices) for (const job of invoice.jobs) createdAfter(invoice.id, invoice.created_at, jobs.get(job));
    });
    expect(found).toEqual([]);
  });

  it('clients and sites: EPA IDs in the site state, sites created after their client', () => {
    const found = violations((fail) => {
      for (const site of account.sites) {
        if (site.epa_id !== null && site.epa_id.slice(0, 2) !== site.address.state) fail(`${site.id}: EPA ID of another state`);
        const client = clients.get(site.client);
        if (client && site.created_at < client.created_at) fail(`${site.id}: created before its client`);
      }
      for (const client of account.clients) {
        const own = account.sites.filter((site) => site.client === client.id);
        if (own.length === 0) fail(`${client.id}: no sites`);
        if (client.epa_id !== null && !own.some((site) => site.address.state === client.epa_id?.slice(0, 2))) {
          fail(`${client.id}: EPA ID state has no site`);
        }
      }
    });
    expect(found).toEqual([]);
  });

  it('jobs: container_count is the number of containers, and containers fit the job status', () => {
    const found = violations((fail) => {
      for (const job of account.jobs) {
        const own = containersOfJob.get(job.id) ?? [];
        if (job.container_count !== own.length) fail(`${job.id}: container_count ${job.container_count}, ${own.length} containers`);
        if (!JOB_STATUSES_WITH_CONTAINERS.includes(job.status) && own.length > 0) fail(`${job.id}: ${job.status} with containers`);
        if (JOB_STATUSES_WITH_CONTAINERS.includes(job.status) && own.length === 0) fail(`${job.id}: ${job.status} without containers`);
        for (const container of own) {
          if (job.status === 'in_progress' && !['open', 'full', 'received'].includes(container.status)) {
            fail(`${container.id}: ${container.status} on a job in progress`);
          }
          if ((job.status === 'closed' || job.status === 'billed') && !isReceived(container.status)) {
            fail(`${container.id}: ${container.status} on a ${job.status} job`);
          }
          if (job.scheduled_for !== null && container.created_at.slice(0, 10) < job.scheduled_for) {
            fail(`${container.id}: created before its job's date`);
          }
        }
      }
    });
    expect(found).toEqual([]);
  });

  it('jobs: date and window follow the status', () => {
    const found = violations((fail) => {
      for (const job of account.jobs) {
        const { status, scheduled_for: date, window } = job;
        if (status === 'draft' && statusForSchedule(date, window) !== 'draft') fail(`${job.id}: draft with date and window`);
        if (status !== 'draft' && status !== 'cancelled' && (date === null || window === null))
          fail(`${job.id}: ${status} without date or window`);
        if (window !== null && window.start >= window.end) fail(`${job.id}: window ${window.start}–${window.end}`);
        if (status === 'scheduled' && date !== null && !(date > TODAY && date <= TEN_WEEKS_AHEAD)) fail(`${job.id}: scheduled for ${date}`);
        if (status === 'in_progress' && date !== TODAY) fail(`${job.id}: in progress on ${date}`);
        if ((status === 'closed' || status === 'billed') && date !== null && date >= TODAY) fail(`${job.id}: ${status} on ${date}`);
        if (date !== null && date > TEN_WEEKS_AHEAD) fail(`${job.id}: more than ten weeks ahead`);
        if (date !== null && date < job.created_at.slice(0, 10)) fail(`${job.id}: dated before it was created`);
      }
    });
    expect(found).toEqual([]);
  });

  it('jobs: crews of 1–5 with known roles; everyone has accepted once work starts', () => {
    const found = violations((fail) => {
      for (const job of account.jobs) {
        const undated = job.scheduled_for === null || job.window === null;
        if (job.crew.length > 5) fail(`${job.id}: crew of ${job.crew.length}`);
        if (job.crew.length === 0 && !undated) fail(`${job.id}: ${job.status} without crew`);
        if (undated && job.crew.some((member) => member.accepted)) fail(`${job.id}: accepted without a date`);
        for (const member of job.crew) if (!ROLES.has(member.role)) fail(`${job.id}: role ${member.role}`);
        if (new Set(job.crew.map((member) => member.name)).size !== job.crew.length) fail(`${job.id}: a member twice`);
        if (JOB_STATUSES_WITH_CONTAINERS.includes(job.status) && job.crew.some((member) => !member.accepted)) {
          fail(`${job.id}: ${job.status} with a crew member who has not accepted`);
        }
      }
    });
    expect(found).toEqual([]);
  });

  it('invoices: closing writes one, billing sends it; each lists exactly its jobs', () => {
    const found = violations((fail) => {
      for (const job of account.jobs) {
        const invoice = job.invoice === null ? undefined : invoices.get(job.invoice);
        if (!JOB_STATUSES_WITH_INVOICE.includes(job.status)) {
          if (job.invoice !== null) fail(`${job.id}: ${job.status} with an invoice`);
          continue;
        }
        if (!invoice) fail(`${job.id}: ${job.status} without invoice`);
        else if (job.status === 'closed' && invoice.status !== 'draft') fail(`${job.id}: closed, invoice ${invoice.status}`);
        else if (job.status === 'billed' && invoice.status === 'draft') fail(`${job.id}: billed, invoice still draft`);
      }
      const numbers = new Set<string>();
      for (const invoice of account.invoices) {
        const listed = account.jobs.filter((job) => job.invoice === invoice.id).map((job) => job.id);
        if ([...listed].sort().join() !== [...invoice.jobs].sort().join()) fail(`${invoice.id}: jobs ${invoice.jobs} vs ${listed}`);
        if (invoice.jobs.length === 0) fail(`${invoice.id}: no jobs`);
        for (const id of invoice.jobs) if (jobs.get(id)?.client !== invoice.client) fail(`${invoice.id}: job ${id} of another client`);
        const expectedPaid = invoice.status === 'paid' ? invoice.amount_due : 0;
        if (invoice.amount_paid !== expectedPaid) fail(`${invoice.id}: ${invoice.status} with amount_paid ${invoice.amount_paid}`);
        if (invoice.due_date <= invoice.created_at.slice(0, 10)) fail(`${invoice.id}: due ${invoice.due_date}`);
        if (invoice.currency !== 'usd') fail(`${invoice.id}: currency ${invoice.currency}`);
        if (!/^INV-\d{4}-\d{6}$/.test(invoice.number) || invoice.number.slice(4, 8) !== invoice.created_at.slice(0, 4)) {
          fail(`${invoice.id}: number ${invoice.number}`);
        }
        if (numbers.has(invoice.number)) fail(`${invoice.id}: number ${invoice.number} twice`);
        numbers.add(invoice.number);
        // Plausible for the work: a few hundred dollars to a large collection event.
        const perJob = invoice.amount_due / invoice.jobs.length;
        if (perJob < 30_000 || perJob > 10_000_000) fail(`${invoice.id}: ${invoice.amount_due} cents`);
      }
    });
    expect(found).toEqual([]);
  });

  it('containers: receipt fields exactly when received, weights, kinds and profiles', () => {
    const found = violations((fail) => {
      let unprofiled = 0;
      for (const container of account.containers) {
        const received = isReceived(container.status);
        if (received !== (container.received_at !== null))
          fail(`${container.id}: ${container.status}, received_at ${container.received_at}`);
        if (received !== (container.storage_status !== null))
          fail(`${container.id}: ${container.status}, storage ${container.storage_status}`);
        if (container.weight_lb === 0 && container.status !== 'open') fail(`${container.id}: ${container.status} weighing 0`);
        if (!KINDS.has(container.kind)) fail(`${container.id}: kind ${container.kind}`);
        if (container.profile === null) {
          unprofiled += 1;
          if (container.status !== 'open') fail(`${container.id}: ${container.status} without profile`);
        } else {
          const profile = profiles.get(container.profile);
          if (profile && !hasApprover(profile.status)) fail(`${container.id}: profile ${profile.status}`);
        }
      }
      if (unprofiled > account.containers.length / 50) fail(`${unprofiled} containers without profile`);
    });
    expect(found).toEqual([]);
  });

  it('profiles: approver exactly when approved or expired; codes from the library; DOT description from a stream', () => {
    const descriptions = new Set(wasteStreams.map((stream) => stream.dot_description));
    const found = violations((fail) => {
      for (const profile of account.waste_profiles) {
        if (hasApprover(profile.status) !== (profile.approved_by !== null))
          fail(`${profile.id}: ${profile.status}, approved_by ${profile.approved_by}`);
        if (profile.approved_by !== null && !FACILITY_NAMES.has(profile.approved_by))
          fail(`${profile.id}: approver ${profile.approved_by}`);
        if (profile.waste_codes.length === 0) fail(`${profile.id}: no codes`);
        for (const code of profile.waste_codes) if (!isKnownWasteCode(code)) fail(`${profile.id}: unknown code ${code}`);
        if (!descriptions.has(profile.dot_description)) fail(`${profile.id}: ${profile.dot_description}`);
      }
    });
    expect(found).toEqual([]);
  });

  it('manifests: on started jobs, generator and facility by the rules, lines are the build of the job containers', () => {
    const facilityPairs = new Set(facilities.map((facility) => `${facility.name}|${facility.epa_id}`));
    const found = violations((fail) => {
      const numbers = new Set<string>();
      for (const manifest of account.manifests) {
        const job = jobs.get(manifest.job);
        if (!job) continue;
        if (!JOB_STATUSES_WITH_CONTAINERS.includes(job.status)) fail(`${manifest.id}: on a ${job.status} job`);
        if ((manifest.status === 'draft') !== (manifest.manifest_tracking_number === null)) {
          fail(`${manifest.id}: ${manifest.status} with tracking number ${manifest.manifest_tracking_number}`);
        }
        const number = manifest.manifest_tracking_number;
        if (number !== null) {
          if (numbers.has(number)) fail(`${manifest.id}: tracking number ${number} twice`);
          numbers.add(number);
        }
        const client = clients.get(job.client);
        const site = sites.get(job.site);
        const generatorId = client?.epa_id ?? site?.epa_id ?? null;
        if (manifest.generator.name !== client?.name || manifest.generator.epa_id !== generatorId) {
          fail(`${manifest.id}: generator ${JSON.stringify(manifest.generator)}`);
        }
        const facility = `${manifest.designated_facility.name}|${manifest.designated_facility.epa_id}`;
        if (!facilityPairs.has(facility)) fail(`${manifest.id}: facility ${facility}`);
        const expected = buildManifestLines(containersOfJob.get(job.id) ?? [], profiles);
        if (JSON.stringify(manifest.lines) !== JSON.stringify(expected)) fail(`${manifest.id}: lines differ from the build`);
        for (const line of manifest.lines) {
          if (line.unit !== 'P') fail(`${manifest.id}: unit ${line.unit}`);
          for (const code of line.waste_codes) if (!isKnownWasteCode(code)) fail(`${manifest.id}: unknown code ${code}`);
        }
        if (manifest.status !== 'draft' && manifest.lines.length === 0) fail(`${manifest.id}: ${manifest.status} without lines`);
      }
      const perJob = countBy(account.manifests, (manifest) => manifest.job);
      for (const [job, count] of perJob) if (count > 1) fail(`${job}: ${count} manifests`);
    });
    expect(found).toEqual([]);
  });

  it('buildManifestLines: one line per profile in first-seen order, unprofiled containers left out', () => {
    const job = account.jobs.find((candidate) => (containersOfJob.get(candidate.id)?.length ?? 0) > 3);
    const own = containersOfJob.get(job?.id ?? '') ?? [];
    const lines = buildManifestLines([{ ...own[0], profile: null } as Container, ...own], profiles);
    const order = [...new Set(own.flatMap((container) => (container.profile === null ? [] : [container.profile])))];
    expect(lines.map((line) => line.profile)).toEqual(order);
    for (const line of lines) {
      const mine = own.filter((container) => container.profile === line.profile);
      expect(line.containers).toBe(mine.length);
      expect(line.quantity).toBe(mine.reduce((sum, container) => sum + container.weight_lb, 0));
      expect(line.waste_codes).toEqual(profiles.get(line.profile)?.waste_codes);
      expect(line.dot_description).toBe(profiles.get(line.profile)?.dot_description);
    }
  });

  it('webhook endpoints: no secret, public https URLs, * or distinct known types', () => {
    const found = violations((fail) => {
      for (const endpoint of account.webhook_endpoints) {
        if (endpoint.secret !== null) fail(`${endpoint.id}: secret shown`);
        const url = new URL(endpoint.url);
        if (url.protocol !== 'https:' || url.username !== '' || /^(localhost|\d+\.\d+\.\d+\.\d+|\[)/.test(url.hostname)) {
          fail(`${endpoint.id}: url ${endpoint.url}`);
        }
        const events: readonly string[] = endpoint.events;
        if (events.includes('*') && events.length !== 1) fail(`${endpoint.id}: * with others`);
        if (new Set(events).size !== events.length) fail(`${endpoint.id}: duplicate types`);
        for (const type of events) if (type !== '*' && !(EVENT_TYPES as readonly string[]).includes(type)) fail(`${endpoint.id}: ${type}`);
      }
    });
    expect(found).toEqual([]);
  });

  describe('events', () => {
    const current = (object: Event['data']['object']) =>
      ({ job: jobs, container: containers, manifest: manifests, waste_profile: profiles, invoice: invoices })[object.object].get(object.id);

    it('carry the record of their type, parsed strictly by that schema', () => {
      const found = violations((fail) => {
        for (const event of account.events) {
          const expected = EVENT_OBJECTS[event.type];
          const object = event.data.object;
          if (object.object !== expected) fail(`${event.id}: ${event.type} carries a ${object.object}`);
          const result = SNAPSHOT_SCHEMAS[expected]().safeParse(object);
          if (!result.success) fail(`${event.id}: ${result.error.message}`);
        }
      });
      expect(found).toEqual([]);
    });

    it('happen within their record life, stamping updated_at', () => {
      const found = violations((fail) => {
        for (const event of account.events) {
          const object = event.data.object;
          const now = current(object);
          if (!now) continue;
          if (event.created_at > SAMPLE_NOW) fail(`${event.id}: after the sample clock`);
          if (event.created_at < now.created_at) fail(`${event.id}: before its record was created`);
          if (object.created_at !== now.created_at) fail(`${event.id}: created_at differs from the record`);
          if ('updated_at' in object && 'updated_at' in now) {
            if (object.updated_at !== event.created_at) fail(`${event.id}: snapshot updated_at ${object.updated_at}`);
            if (event.created_at > now.updated_at) fail(`${event.id}: after its record's updated_at`);
          }
        }
      });
      expect(found).toEqual([]);
    });

    it('keep what never changes equal to the current record', () => {
      const fixed: Record<string, readonly string[]> = {
        job: ['type', 'client', 'site', 'metadata'],
        container: ['job', 'profile', 'kind'],
        manifest: ['job', 'submission_type', 'generator', 'designated_facility'],
        waste_profile: ['client', 'name', 'waste_codes', 'dot_description'],
        invoice: ['number', 'client', 'currency', 'due_date'],
      };
      const found = violations((fail) => {
        for (const event of account.events) {
          const object = event.data.object as unknown as Record<string, unknown>;
          const now = current(event.data.object) as unknown as Record<string, unknown> | undefined;
          for (const field of fixed[event.data.object.object] ?? []) {
            if (JSON.stringify(object[field]) !== JSON.stringify(now?.[field])) fail(`${event.id}: ${field} differs`);
          }
        }
      });
      expect(found).toEqual([]);
    });

    it('show the record right after the change their type names', () => {
      const found = violations((fail) => {
        const acceptedSoFar = new Map<string, number>();
        const ordered = [...account.events].sort((x, y) => (x.created_at < y.created_at ? -1 : x.created_at > y.created_at ? 1 : 0));
        for (const event of ordered) {
          const type: EventType = event.type;
          const object = event.data.object;
          const at = event.created_at;
          const problem = (message: string) => fail(`${event.id} (${type}): ${message}`);
          switch (type) {
            case 'job.created': {
              const job = object as Job;
              if (job.status !== statusForSchedule(job.scheduled_for, job.window)) problem(`status ${job.status}`);
              if (job.container_count !== 0 || job.invoice !== null) problem('has containers or invoice');
              if (job.created_at !== at || job.updated_at !== at) problem('not stamped with its creation');
              if (job.crew.some((member) => member.accepted)) problem('crew already accepted');
              break;
            }
            case 'job.scheduled': {
              const job = object as Job;
              if (job.status !== 'scheduled' || job.scheduled_for === null || job.window === null) problem(`status ${job.status}`);
              if (job.crew.length === 0) problem('not staffed');
              break;
            }
            case 'staff.accepted': {
              const job = object as Job;
              const accepted = job.crew.filter((member) => member.accepted).length;
              if (accepted !== (acceptedSoFar.get(job.id) ?? 0) + 1)
                problem(`${accepted} accepted after ${acceptedSoFar.get(job.id) ?? 0}`);
              acceptedSoFar.set(job.id, accepted);
              if (!CANCELLABLE_JOB_STATUSES.includes(job.status)) problem(`accepted on a ${job.status} job`);
              break;
            }
            case 'job.closed': {
              const job = object as Job;
              const now = jobs.get(job.id);
              if (job.status !== 'closed' || job.invoice === null || job.invoice !== now?.invoice)
                problem(`status ${job.status}, invoice ${job.invoice}`);
              if (job.container_count !== now?.container_count) problem('container count differs from the final one');
              break;
            }
            case 'container.received': {
              const container = object as Container;
              if (container.status !== 'received' || container.received_at !== at || container.storage_status !== 'within_limit') {
                problem(`${container.status}, ${container.received_at}, ${container.storage_status}`);
              }
              if (containers.get(container.id)?.received_at !== at) problem('received at another time than the record says');
              break;
            }
            case 'container.storage_status_changed': {
              const container = object as Container;
              if (container.status !== 'received' || container.storage_status === null || container.storage_status === 'within_limit') {
                problem(`${container.status}, ${container.storage_status}`);
              }
              break;
            }
            case 'manifest.ready_for_signature':
            case 'manifest.signed': {
              const manifest = object as Manifest;
              const expected = type === 'manifest.signed' ? 'signed' : 'ready_for_signature';
              if (manifest.status !== expected) problem(`status ${manifest.status}`);
              const now = manifests.get(manifest.id);
              if (manifest.manifest_tracking_number === null || manifest.manifest_tracking_number !== now?.manifest_tracking_number) {
                problem(`tracking number ${manifest.manifest_tracking_number}`);
              }
              if (manifest.lines.length === 0) problem('no lines');
              break;
            }
            case 'profile.approved':
            case 'profile.expiring': {
              const profile = object as WasteProfile;
              if (profile.status !== 'approved' || profile.approved_by === null) problem(`${profile.status}, ${profile.approved_by}`);
              break;
            }
            case 'invoice.sent': {
              const invoice = object as Invoice;
              if (invoice.status !== 'open' || invoice.amount_paid !== 0) problem(`${invoice.status}, paid ${invoice.amount_paid}`);
              if (JSON.stringify(invoice.jobs) !== JSON.stringify(invoices.get(invoice.id)?.jobs))
                problem('jobs differ from the final list');
              break;
            }
            case 'invoice.paid': {
              const invoice = object as Invoice;
              if (invoice.status !== 'paid' || invoice.amount_paid !== invoice.amount_due)
                problem(`${invoice.status}, paid ${invoice.amount_paid}`);
              break;
            }
          }
        }
      });
      expect(found).toEqual([]);
    });

    it('tell each record story in order: one job.created per job, a received event per received container', () => {
      const created = countBy(
        account.events.filter((event) => event.type === 'job.created'),
        (event) => event.data.object.id,
      );
      expect(account.jobs.filter((job) => created.get(job.id) !== 1).map((job) => job.id)).toEqual([]);
      const received = countBy(
        account.events.filter((event) => event.type === 'container.received'),
        (event) => event.data.object.id,
      );
      const receivedContainers = account.containers.filter((container) => isReceived(container.status));
      expect(receivedContainers.filter((container) => received.get(container.id) !== 1).map((container) => container.id)).toEqual([]);
      const closed = account.jobs.filter((job) => JOB_STATUSES_WITH_INVOICE.includes(job.status)).length;
      expect(account.events.filter((event) => event.type === 'job.closed')).toHaveLength(closed);
    });
  });
});
