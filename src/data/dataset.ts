import type { Client } from '../resources/clients/schema.js';
import type { Container } from '../resources/containers/schema.js';
import type { Event } from '../resources/events/schema.js';
import type { Invoice } from '../resources/invoices/schema.js';
import type { Job } from '../resources/jobs/schema.js';
import type { Manifest } from '../resources/manifests/schema.js';
import type { Site } from '../resources/sites/schema.js';
import type { WasteProfile } from '../resources/waste_profiles/schema.js';
import type { WebhookEndpoint } from '../resources/webhook_endpoints/schema.js';

/** The sample records of one account, each exactly as the API returns it. */
export interface AccountData {
  clients: Client[];
  sites: Site[];
  waste_profiles: WasteProfile[];
  jobs: Job[];
  containers: Container[];
  manifests: Manifest[];
  invoices: Invoice[];
  webhook_endpoints: WebhookEndpoint[];
  events: Event[];
}

export type AccountName = 'A' | 'B';

export interface SampleData {
  seed: string;
  accounts: Record<AccountName, AccountData>;
}

/** The published default seed: docs and tests quote IDs generated from it. */
export const DEFAULT_SEED = 'waste-ops-sandbox-v1';

/** The fixed clock of the sample records (README, "Nothing is kept"). */
export const SAMPLE_NOW = '2026-03-02T17:00:00Z';
