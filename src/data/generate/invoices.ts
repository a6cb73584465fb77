// Closing and billing. Closing a job writes its invoice, a draft, and fills job.invoice; a
// billed job's invoice has gone to the client: open, paid or void (docs/sample-data.md).
// A few invoices gather two or three jobs of one client closed within days of each other.
import type { Invoice } from '../../resources/invoices/schema.js';
import { JOB_STATUSES_WITH_INVOICE } from '../../resources/jobs/transitions.js';
import { DAY, formatDate, formatTimestamp, HOUR, MINUTE, NOW, type Random } from '../random.js';
import type { ContainerPlan } from './containers.js';
import type { GeneratorContext } from './context.js';
import type { JobPlan } from './jobs.js';
import { liveLife, type LifeChange, type Snapshot } from './life.js';
import type { JobType } from './profiles.js';

const PAYMENT_TERMS_DAYS = 30;

/** Mobilization, labor and transport of a job before disposal, in whole dollars. */
const BASE_FEE_DOLLARS: Readonly<Record<JobType, readonly [number, number]>> = {
  hhw_event: [1850, 3600],
  ci_pickup: [325, 850],
  lab_pack: [1200, 2800],
};

export interface InvoicePlan {
  record: Invoice;
  jobs: JobPlan[];
  snapshots: Snapshot<Invoice>[];
}

interface Draft {
  id: string;
  jobs: JobPlan[];
  amounts: number[];
  createdAt: number;
}

/** The job's charge: base fee, a handling fee per container, disposal by the pound. */
function jobAmount(random: Random, job: JobPlan, containers: readonly ContainerPlan[]): number {
  const [min, max] = BASE_FEE_DOLLARS[job.type];
  let cents = random.int(min, max) * 100;
  for (const container of containers) {
    cents += container.kind.handling_fee_cents + container.weight * (container.profile?.stream.disposal_cents_per_lb ?? 0);
  }
  return cents;
}

export function closeAndBill(context: GeneratorContext, jobs: readonly JobPlan[], containers: readonly ContainerPlan[]): InvoicePlan[] {
  const { random, id } = context;
  const containersByJob = new Map<JobPlan, ContainerPlan[]>();
  for (const container of containers) {
    const list = containersByJob.get(container.job) ?? [];
    list.push(container);
    containersByJob.set(container.job, list);
  }

  // job.closed is sent when containers are counted and weights are in: after the last receipt.
  const closing = jobs.filter((job) => JOB_STATUSES_WITH_INVOICE.includes(job.status));
  for (const job of closing) {
    const own = containersByJob.get(job) ?? [];
    const lastReceipt = Math.max(...own.map((container) => container.receivedAt ?? container.createdAt));
    let closedAt = lastReceipt + random.int(2 * HOUR, 72 * HOUR);
    if (job.status === 'closed') closedAt = Math.max(lastReceipt + MINUTE, Math.min(closedAt, NOW - random.int(30 * MINUTE, 8 * HOUR)));
    job.closedAt = closedAt;
  }
  closing.sort((a, b) => (a.closedAt ?? 0) - (b.closedAt ?? 0));

  const drafts: Draft[] = [];
  const gathering = new Map<string, Draft>();
  for (const job of closing) {
    const closedAt = job.closedAt ?? 0;
    const amount = jobAmount(random, job, containersByJob.get(job) ?? []);
    const key = `${job.client.record.id}:${job.status}`;
    const current = gathering.get(key);
    if (current && current.jobs.length < 3 && closedAt - current.createdAt <= 10 * DAY && random.chance(0.3)) {
      current.jobs.push(job);
      current.amounts.push(amount);
    } else {
      const draft = { id: id('invoice'), jobs: [job], amounts: [amount], createdAt: closedAt };
      drafts.push(draft);
      gathering.set(key, draft);
    }
    job.invoiceId = gathering.get(key)?.id ?? null;
  }

  // Numbers run per year in the order invoices were written.
  const numbers = new Map<string, string>();
  const perYear = new Map<string, number>();
  for (const draft of [...drafts].sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1))) {
    const year = formatDate(draft.createdAt).slice(0, 4);
    const sequence = (perYear.get(year) ?? 0) + 1;
    perYear.set(year, sequence);
    numbers.set(draft.id, `INV-${year}-${String(sequence).padStart(6, '0')}`);
  }

  let oldIssued = 0;
  return drafts.map((draft) => {
    const [first] = draft.jobs;
    if (!first) throw new Error(`invoice ${draft.id} has no job`);
    const issued = first.status === 'billed';
    const initial: Invoice = {
      id: draft.id,
      object: 'invoice',
      number: numbers.get(draft.id) ?? '',
      client: first.client.record.id,
      jobs: [first.id],
      status: 'draft',
      currency: 'usd',
      amount_due: draft.amounts[0] ?? 0,
      amount_paid: 0,
      due_date: formatDate(draft.createdAt + PAYMENT_TERMS_DAYS * DAY),
      created_at: formatTimestamp(draft.createdAt),
    };
    const changes: LifeChange<Invoice>[] = [];
    draft.jobs.slice(1).forEach((job, index) => {
      const amount = draft.amounts[index + 1] ?? 0;
      changes.push({
        at: job.closedAt ?? draft.createdAt,
        apply: (invoice) => {
          invoice.jobs.push(job.id);
          invoice.amount_due += amount;
        },
      });
    });
    if (issued) {
      const lastClosed = Math.max(...draft.jobs.map((job) => job.closedAt ?? 0));
      const sentAt = Math.max(
        lastClosed + MINUTE,
        Math.min(lastClosed + random.int(DAY, 6 * DAY), NOW - random.int(10 * MINUTE, 2 * HOUR)),
      );
      for (const job of draft.jobs) job.billedAt = sentAt;
      changes.push({
        at: sentAt,
        event: 'invoice.sent',
        apply: (invoice) => {
          invoice.status = 'open';
        },
      });
      const age = NOW - sentAt;
      const recent = age < 35 * DAY;
      if (!recent) oldIssued += 1;
      if (!recent && oldIssued % 10 === 0) {
        changes.push({
          at: sentAt + random.int(2 * DAY, 20 * DAY),
          apply: (invoice) => {
            invoice.status = 'void';
          },
        });
      } else if (recent ? random.chance(0.3) && age > 3 * DAY : random.chance(0.95)) {
        const paidAt = sentAt + random.int(2 * DAY, Math.min(45 * DAY, age - HOUR));
        changes.push({
          at: paidAt,
          event: 'invoice.paid',
          apply: (invoice) => {
            invoice.status = 'paid';
            invoice.amount_paid = invoice.amount_due;
          },
        });
      }
    }
    const life = liveLife(initial, draft.createdAt, changes, { clone: (invoice) => ({ ...invoice, jobs: [...invoice.jobs] }) });
    return { record: life.record, jobs: draft.jobs, snapshots: life.snapshots };
  });
}
