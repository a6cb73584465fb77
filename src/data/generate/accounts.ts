// The two sample accounts (README, "Keys and scopes"; docs/sample-data.md): A, a West Coast operator large
// enough that every list needs several pages and every enum value appears; B, a small Texas
// operator with its own records.
import { toSeconds } from '../random.js';
import type { AccountName } from '../dataset.js';
import type { AccountPlan } from './context.js';

export const ACCOUNT_PLANS: Readonly<Record<AccountName, AccountPlan>> = {
  A: {
    name: 'A',
    clients: [
      { kind: 'hhw_program', state: 'CA', hasEpaId: true, sites: 6 },
      { kind: 'hhw_program', state: 'WA', hasEpaId: true, sites: 5 },
      { kind: 'hhw_program', state: 'OR', hasEpaId: false, sites: 5 },
      { kind: 'hhw_program', state: 'CA', hasEpaId: false, sites: 4 },
      { kind: 'commercial_industrial', state: 'CA', hasEpaId: true, sites: 3 },
      { kind: 'commercial_industrial', state: 'WA', hasEpaId: true, sites: 2 },
      { kind: 'commercial_industrial', state: 'CA', hasEpaId: true, sites: 3 },
      { kind: 'commercial_industrial', state: 'OR', hasEpaId: false, sites: 2 },
      { kind: 'commercial_industrial', state: 'WA', hasEpaId: true, sites: 2 },
      { kind: 'laboratory', state: 'CA', hasEpaId: true, sites: 3 },
      { kind: 'laboratory', state: 'WA', hasEpaId: true, sites: 2 },
      { kind: 'laboratory', state: 'OR', hasEpaId: true, sites: 3 },
      // Smaller clients, so the client list needs several pages at the default limit of 25
      // (docs/sample-data.md).
      { kind: 'commercial_industrial', state: 'CA', hasEpaId: true, sites: 1 },
      { kind: 'commercial_industrial', state: 'CA', hasEpaId: false, sites: 1 },
      { kind: 'commercial_industrial', state: 'WA', hasEpaId: true, sites: 1 },
      { kind: 'commercial_industrial', state: 'OR', hasEpaId: true, sites: 1 },
      { kind: 'commercial_industrial', state: 'CA', hasEpaId: true, sites: 2 },
      { kind: 'commercial_industrial', state: 'WA', hasEpaId: false, sites: 1 },
      { kind: 'commercial_industrial', state: 'CA', hasEpaId: true, sites: 1 },
      { kind: 'commercial_industrial', state: 'OR', hasEpaId: true, sites: 1 },
      { kind: 'laboratory', state: 'CA', hasEpaId: true, sites: 1 },
      { kind: 'laboratory', state: 'WA', hasEpaId: true, sites: 1 },
      { kind: 'laboratory', state: 'CA', hasEpaId: true, sites: 1 },
      { kind: 'laboratory', state: 'OR', hasEpaId: true, sites: 1 },
      { kind: 'hhw_program', state: 'WA', hasEpaId: true, sites: 2 },
      { kind: 'hhw_program', state: 'CA', hasEpaId: true, sites: 2 },
      { kind: 'commercial_industrial', state: 'WA', hasEpaId: true, sites: 1 },
      { kind: 'laboratory', state: 'CA', hasEpaId: false, sites: 1 },
    ],
    jobs: { draft: 18, scheduled: 40, in_progress: 8, closed: 22, billed: 104, cancelled: 18 },
    minContainers: 1500,
    // More than one default page (25), as every list must need several.
    webhookEndpoints: 30,
    roster: { crew_lead: 4, chemist: 5, hazmat_technician: 8, driver: 5, traffic_controller: 3 },
    historyStart: toSeconds('2024-08-01T00:00:00Z'),
    clientsUntil: toSeconds('2025-05-31T00:00:00Z'),
  },
  B: {
    name: 'B',
    clients: [
      { kind: 'hhw_program', state: 'TX', hasEpaId: false, sites: 3 },
      { kind: 'commercial_industrial', state: 'TX', hasEpaId: true, sites: 2 },
      { kind: 'laboratory', state: 'TX', hasEpaId: true, sites: 1 },
    ],
    jobs: { draft: 2, scheduled: 4, in_progress: 2, closed: 2, billed: 8, cancelled: 2 },
    minContainers: 110,
    webhookEndpoints: 2,
    roster: { crew_lead: 2, chemist: 2, hazmat_technician: 3, driver: 2, traffic_controller: 1 },
    historyStart: toSeconds('2024-10-01T00:00:00Z'),
    clientsUntil: toSeconds('2025-04-30T00:00:00Z'),
  },
};
