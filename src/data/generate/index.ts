// The sample data of both accounts from one seed (docs/sample-data.md). Pure: no clock,
// no Math.random, no I/O, so every runtime builds the same bytes from the same seed.
import type { Event } from '../../resources/events/schema.js';
import type { AccountData, AccountName, SampleData } from '../dataset.js';
import { ACCOUNT_PLANS } from './accounts.js';
import { generateClients } from './clients.js';
import { generateContainers } from './containers.js';
import { createContext, type AccountPlan } from './context.js';
import { generateEvents, type EventObject } from './events.js';
import { closeAndBill } from './invoices.js';
import { finishJob, planJobs } from './jobs.js';
import type { Snapshot } from './life.js';
import { generateManifests } from './manifests.js';
import { generateProfiles } from './profiles.js';
import { generateSites } from './sites.js';
import { generateWebhookEndpoints } from './webhook-endpoints.js';

export function generateSampleData(seed: string): SampleData {
  // One set of used IDs across both accounts: no ID is in both.
  const usedIds = new Set<string>();
  const accounts: Record<AccountName, AccountData> = {
    A: generateAccount(seed, ACCOUNT_PLANS.A, usedIds),
    B: generateAccount(seed, ACCOUNT_PLANS.B, usedIds),
  };
  return { seed, accounts };
}

interface Dated {
  id: string;
  created_at: string;
}

/** Oldest first, ties by ID: a stable order for the JSON (the store sorts for listing). */
function oldestFirst<T extends Dated>(records: T[]): T[] {
  return records.sort((a, b) =>
    a.created_at !== b.created_at ? (a.created_at < b.created_at ? -1 : 1) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
  );
}

function generateAccount(seed: string, plan: AccountPlan, usedIds: Set<string>): AccountData {
  const context = (resource: string) => createContext(seed, plan, resource, usedIds);
  const clients = generateClients(context('clients'));
  const sites = generateSites(context('sites'), clients);
  const profiles = generateProfiles(context('waste_profiles'), clients);
  const jobs = planJobs(context('jobs'), clients, sites, profiles);
  const containers = generateContainers(context('containers'), jobs, profiles.profiles);
  const invoices = closeAndBill(context('invoices'), jobs, containers);
  // Jobs are replayed last: their life holds their containers, closing and billing.
  for (const job of jobs) finishJob(job);
  const manifests = generateManifests(context('manifests'), jobs, containers, profiles.profiles);
  const webhookEndpoints = generateWebhookEndpoints(context('webhook_endpoints'));

  const snapshots: Snapshot<EventObject>[] = [
    ...profiles.profiles.flatMap((profile) => profile.snapshots),
    ...jobs.flatMap((job) => job.snapshots),
    ...containers.flatMap((container) => container.snapshots),
    ...manifests.flatMap((manifest) => manifest.snapshots),
    ...invoices.flatMap((invoice) => invoice.snapshots),
  ];
  const events: Event[] = generateEvents(context('events'), snapshots);

  return {
    clients: oldestFirst(clients.map((client) => client.record)),
    sites: oldestFirst(sites.map((site) => site.record)),
    waste_profiles: oldestFirst(profiles.profiles.map((profile) => profile.record)),
    jobs: oldestFirst(
      jobs.map((job) => {
        if (!job.record) throw new Error(`job ${job.id} was not finished`);
        return job.record;
      }),
    ),
    containers: oldestFirst(containers.map((container) => container.record)),
    manifests: oldestFirst(manifests.map((manifest) => manifest.record)),
    invoices: oldestFirst(invoices.map((invoice) => invoice.record)),
    webhook_endpoints: oldestFirst(webhookEndpoints),
    events,
  };
}
