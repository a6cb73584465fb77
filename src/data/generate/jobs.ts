// Jobs: planned first (client, site, date, window, crew and the times of their life), then
// finished once containers and invoices are known, by replaying their life. The status of each
// moment comes from the shared rules of jobs/transitions.ts.
import { JOB_STATUSES, type Job, type JobStatus } from '../../resources/jobs/schema.js';
import { CANCELLABLE_JOB_STATUSES, JOB_STATUSES_WITH_CONTAINERS, statusForSchedule } from '../../resources/jobs/transitions.js';
import {
  DAY,
  formatDate,
  formatLocalTime,
  formatTimestamp,
  HOUR,
  localDateOf,
  localToUtc,
  MINUTE,
  NOW,
  weekday,
  type Random,
} from '../random.js';
import type { ClientPlan } from './clients.js';
import type { GeneratorContext } from './context.js';
import { CREW_ROLES } from './fixtures.js';
import { liveLife, type LifeChange, type Snapshot } from './life.js';
import type { JobType, ProfilesResult } from './profiles.js';
import type { SitePlan } from './sites.js';

/** A work window in minutes after local midnight. */
export interface WorkWindow {
  start: number;
  end: number;
}

export interface CrewSeat {
  name: string;
  role: string;
  /** When the member accepted the assignment; null while they have not. */
  acceptedAt: number | null;
}

export interface JobPlan {
  id: string;
  status: JobStatus;
  type: JobType;
  client: ClientPlan;
  site: SitePlan;
  createdAt: number;
  /** Created with its date, window and crew (job.created as scheduled), or as a bare draft. */
  createdScheduled: boolean;
  /** When a job created as a draft got its date, window and crew (job.scheduled). */
  scheduledAt: number | null;
  /** A PATCH that gave a draft one of date or window, leaving it a draft. */
  draftEdit: { at: number; field: 'date' | 'window' } | null;
  /** The job's date (local, as midnight UTC of it) and window, as they are now. */
  date: number | null;
  window: WorkWindow | null;
  crew: CrewSeat[];
  /** The window in UTC, for jobs that have one. */
  workStart: number | null;
  workEnd: number | null;
  cancelledAt: number | null;
  metadata: Record<string, string>;
  /** Filled in by the containers and invoices generators. */
  containerTimes: number[];
  closedAt: number | null;
  billedAt: number | null;
  invoiceId: string | null;
  record?: Job;
  snapshots: Snapshot<Job>[];
}

/** Returns a value in [lo, hi]; an empty range gives lo, so callers keep their order. */
function between(random: Random, lo: number, hi: number): number {
  return random.int(lo, Math.max(lo, hi));
}

const TYPE_WEIGHTS: Readonly<Record<JobType, number>> = { hhw_event: 4, ci_pickup: 4, lab_pack: 3 };

/** HHW collection events are held on Saturdays; pickups and lab packs on weekdays. */
function pickWorkDate(random: Random, type: JobType, lo: number, hi: number): number {
  const loDay = Math.ceil(lo / DAY) * DAY;
  const hiDay = Math.floor(hi / DAY) * DAY;
  const day = Math.floor(between(random, loDay, hiDay) / DAY) * DAY;
  const fits = (candidate: number) =>
    type === 'hhw_event' ? weekday(candidate) === 6 : weekday(candidate) >= 1 && weekday(candidate) <= 5;
  for (let k = 0; k < 7; k++) if (day + k * DAY <= hiDay && fits(day + k * DAY)) return day + k * DAY;
  for (let k = 1; k < 7; k++) if (day - k * DAY >= loDay && fits(day - k * DAY)) return day - k * DAY;
  return day;
}

function typicalWindow(random: Random, type: JobType): WorkWindow {
  switch (type) {
    case 'hhw_event': {
      const start = random.pick([480, 510, 540]);
      return { start, end: start + random.pick([240, 300, 360]) };
    }
    case 'ci_pickup': {
      const start = 390 + 30 * random.int(0, 7);
      return { start, end: start + 30 * random.int(4, 8) };
    }
    case 'lab_pack': {
      const start = 420 + 30 * random.int(0, 4);
      return { start, end: start + 60 * random.int(5, 8) };
    }
  }
}

/** A window that started at least 90 minutes before the sample clock and runs past it. */
function windowAroundNow(random: Random, type: JobType, nowMinutes: number): WorkWindow {
  const typical = typicalWindow(random, type);
  const start = 360 + 30 * random.int(0, Math.floor((nowMinutes - 90 - 360) / 30));
  const end = Math.max(start + (typical.end - typical.start), 30 * Math.ceil((nowMinutes + 60) / 30));
  return { start, end: Math.min(end, 23 * 60 + 30) };
}

function crewRoles(random: Random, type: JobType): string[] {
  switch (type) {
    case 'hhw_event': {
      const roles = ['crew_lead', 'chemist', 'hazmat_technician'];
      if (random.chance(0.5)) roles.push('hazmat_technician');
      if (random.chance(0.7)) roles.push('traffic_controller');
      if (roles.length < 5 && random.chance(0.4)) roles.push('driver');
      return roles;
    }
    case 'ci_pickup':
      return ['driver', ...(random.chance(0.6) ? ['hazmat_technician'] : []), ...(random.chance(0.25) ? ['crew_lead'] : [])];
    case 'lab_pack':
      return ['chemist', ...(random.chance(0.7) ? ['hazmat_technician'] : []), ...(random.chance(0.6) ? ['driver'] : [])];
  }
}

interface RosterMember {
  name: string;
  role: string;
}

function buildRoster(context: GeneratorContext): RosterMember[] {
  const { faker, plan } = context;
  const roster: RosterMember[] = [];
  const names = new Set<string>();
  for (const { role } of CREW_ROLES) {
    for (let i = 0; i < (plan.roster[role] ?? 0); i++) {
      let name = `${faker.person.firstName()} ${faker.person.lastName()}`;
      while (names.has(name)) name = `${faker.person.firstName()} ${faker.person.lastName()}`;
      names.add(name);
      roster.push({ name, role });
    }
  }
  return roster;
}

function jobMetadata(random: Random, type: JobType, date: number | null): Record<string, string> {
  if (random.chance(0.4)) return {};
  switch (type) {
    case 'hhw_event': {
      const month = date === null ? 3 : new Date(date * 1000).getUTCMonth();
      const season = ['Winter', 'Spring', 'Summer', 'Fall'][Math.floor(((month + 1) % 12) / 3)] ?? 'Spring';
      return { event_name: `${season} Collection Day` };
    }
    case 'ci_pickup':
      return { po_number: `PO-${random.int(10000, 99999)}` };
    case 'lab_pack':
      return { cost_center: `CHEM-${random.int(1000, 9999)}`, inventory_ref: `INV-LIST-${random.int(100, 999)}` };
  }
}

/** The statuses of one account's jobs, in planning order. */
function statusList(counts: Readonly<Record<JobStatus, number>>): JobStatus[] {
  return JOB_STATUSES.flatMap((status) => Array.from({ length: counts[status] }, () => status));
}

export function planJobs(
  context: GeneratorContext,
  clients: readonly ClientPlan[],
  sites: readonly SitePlan[],
  profiles: ProfilesResult,
): JobPlan[] {
  const { random, plan, id } = context;
  const roster = buildRoster(context);
  const perStatusIndex = new Map<JobStatus, number>();
  return statusList(plan.jobs).map((status) => {
    const index = perStatusIndex.get(status) ?? 0;
    perStatusIndex.set(status, index + 1);

    const client = random.pick(clients);
    const types = profiles.jobTypesByClient.get(client.record.id) ?? ['ci_pickup'];
    const type = random.weighted(types.map((jobType) => [jobType, TYPE_WEIGHTS[jobType] * (jobType === types[0] ? 3 : 1)] as const));
    const state = client.spec.state;
    const today = localDateOf(state, NOW);
    // Jobs start two months after the client signed on, once its core profiles are approved.
    const firstWorkDay = client.createdAt + 60 * DAY;
    const earliestCreation = client.createdAt + 15 * DAY;

    // Date and window: past work for billed and closed, today for in_progress, future for
    // scheduled; drafts have at most one of the two.
    const cancelledAsDraft = status === 'cancelled' && index % 3 === 0;
    const draftVariant = status === 'draft' ? index % 4 : null;
    let date: number | null = null;
    let window: WorkWindow | null = null;
    switch (status) {
      case 'billed':
        date = pickWorkDate(random, type, firstWorkDay, NOW - 12 * DAY);
        break;
      case 'closed':
        date = pickWorkDate(random, type, Math.max(firstWorkDay, NOW - 24 * DAY), NOW - 3 * DAY);
        break;
      case 'in_progress':
        date = today;
        break;
      case 'scheduled':
        date = pickWorkDate(random, type, today + DAY, today + 70 * DAY);
        break;
      case 'cancelled':
        if (!cancelledAsDraft) date = pickWorkDate(random, type, Math.max(firstWorkDay, NOW - 240 * DAY), today + 45 * DAY);
        break;
      case 'draft':
        if (draftVariant === 2) date = pickWorkDate(random, type, today + 10 * DAY, today + 70 * DAY);
        break;
    }
    if (date !== null && status !== 'draft') {
      window =
        status === 'in_progress'
          ? windowAroundNow(random, type, (NOW - localToUtc(state, today, 0)) / MINUTE)
          : typicalWindow(random, type);
    }
    const workStart = date !== null && window !== null ? localToUtc(state, date, window.start) : null;
    const workEnd = date !== null && window !== null ? localToUtc(state, date, window.end) : null;

    // Creation: a week to six weeks ahead of the work, never after the sample clock.
    let createdAt: number;
    if (workStart === null) {
      createdAt = NOW - (cancelledAsDraft ? between(random, 10 * DAY, 200 * DAY) : between(random, 2 * HOUR, 30 * DAY));
    } else if (workStart <= NOW) {
      createdAt = workStart - between(random, 7 * DAY, 45 * DAY);
    } else {
      createdAt = Math.min(workStart - 7 * DAY, NOW - between(random, 6 * HOUR, 20 * DAY));
    }
    createdAt = Math.max(createdAt, earliestCreation);
    const createdScheduled = workStart !== null && random.chance(0.65);
    const horizon = workStart === null ? NOW : Math.min(workStart, NOW);
    const scheduledAt =
      workStart !== null && !createdScheduled
        ? createdAt + between(random, HOUR, Math.min(10 * DAY, Math.floor((horizon - createdAt) / 2)))
        : null;
    let draftEdit: JobPlan['draftEdit'] = null;
    if (draftVariant === 3) {
      window = typicalWindow(random, type);
      draftEdit = { at: between(random, createdAt + 30 * MINUTE, NOW - MINUTE), field: 'window' };
    }

    // Cancelled before work started (a cancel works from draft or scheduled only).
    let cancelledAt: number | null = null;
    if (status === 'cancelled') {
      const from = scheduledAt ?? createdAt;
      const until = workStart === null ? Math.min(from + 20 * DAY, NOW - HOUR) : Math.min(workStart - 3 * HOUR, NOW - 10 * MINUTE);
      cancelledAt = between(random, from + HOUR, until);
    }

    // Crew: staffed when the job gets its date; everyone has accepted once work starts.
    const staffed = workStart !== null;
    const allAccept = JOB_STATUSES_WITH_CONTAINERS.includes(status);
    const acceptBase = scheduledAt ?? createdAt;
    const acceptUntil = Math.min(horizon - 2 * HOUR, (cancelledAt ?? NOW) - MINUTE, NOW - MINUTE);
    const taken = new Set<string>();
    const crew: CrewSeat[] = [];
    if (staffed) {
      for (const role of crewRoles(random, type)) {
        const candidates = roster.filter((member) => member.role === role && !taken.has(member.name));
        if (candidates.length === 0) continue;
        const member = random.pick(candidates);
        taken.add(member.name);
        const at = acceptBase + between(random, 10 * MINUTE, Math.min(6 * DAY, acceptUntil - acceptBase));
        const accepts = allAccept || random.chance(status === 'scheduled' ? 0.55 : 0.5);
        crew.push({ name: member.name, role, acceptedAt: accepts && at <= acceptUntil ? at : null });
      }
    }

    // Work with containers needs a generator of record for its manifest, nearly always.
    const needsGenerator = status === 'in_progress' || (allAccept && random.chance(0.9));
    const site = pickSite(random, client, sites, type, createdAt, needsGenerator);

    return {
      id: id('job'),
      status,
      type,
      client,
      site,
      createdAt,
      createdScheduled,
      scheduledAt,
      draftEdit,
      date,
      window,
      crew,
      workStart,
      workEnd,
      cancelledAt,
      metadata: jobMetadata(random, type, date),
      containerTimes: [],
      closedAt: null,
      billedAt: null,
      invoiceId: null,
      snapshots: [],
    };
  });
}

function pickSite(
  random: Random,
  client: ClientPlan,
  sites: readonly SitePlan[],
  type: JobType,
  createdAt: number,
  needsGenerator: boolean,
): SitePlan {
  const own = sites.filter((site) => site.client === client && site.createdAt < createdAt);
  const primary = sites.find((site) => site.client === client && site.primary);
  if (!primary) throw new Error(`client ${client.record.id} has no sites`);
  let candidates = own;
  // HHW events happen on event lots; an HHW program's pickups at its permanent facility.
  if (client.spec.kind === 'hhw_program') {
    const wanted = own.filter((site) => site.primary === (type !== 'hhw_event'));
    if (wanted.length > 0) candidates = wanted;
  }
  if (needsGenerator && client.record.epa_id === null) {
    const withId = candidates.filter((site) => site.record.epa_id !== null);
    candidates = withId.length > 0 ? withId : own.filter((site) => site.record.epa_id !== null);
  }
  return candidates.length > 0 ? random.pick(candidates) : primary;
}

function cloneJob(job: Job): Job {
  return {
    ...job,
    window: job.window === null ? null : { ...job.window },
    crew: job.crew.map((member) => ({ ...member })),
    metadata: { ...job.metadata },
  };
}

/** Replays a planned job's life into its current record and its events. */
export function finishJob(plan: JobPlan): void {
  const dateOf = (date: number | null) => (date === null ? null : formatDate(date));
  const windowOf = (window: WorkWindow | null) =>
    window === null ? null : { start: formatLocalTime(window.start), end: formatLocalTime(window.end) };
  const seats = () => plan.crew.map((seat) => ({ name: seat.name, role: seat.role, accepted: false }));

  // As created: with date, window and crew; or a draft holding at most its date; the rest
  // arrives later by job.scheduled or a PATCH.
  const initialDate = plan.createdScheduled || (plan.scheduledAt === null && plan.draftEdit === null) ? plan.date : null;
  const initialWindow = plan.createdScheduled ? plan.window : null;
  const initial: Job = {
    id: plan.id,
    object: 'job',
    type: plan.type,
    client: plan.client.record.id,
    site: plan.site.record.id,
    status: statusForSchedule(dateOf(initialDate), windowOf(initialWindow)),
    scheduled_for: dateOf(initialDate),
    window: windowOf(initialWindow),
    crew: plan.createdScheduled ? seats() : [],
    container_count: 0,
    invoice: null,
    metadata: plan.metadata,
    created_at: formatTimestamp(plan.createdAt),
    updated_at: formatTimestamp(plan.createdAt),
  };

  const changes: LifeChange<Job>[] = [];
  if (plan.draftEdit !== null) {
    const edit = plan.draftEdit;
    changes.push({
      at: edit.at,
      apply: (job) => {
        if (edit.field === 'window') job.window = windowOf(plan.window);
        else job.scheduled_for = dateOf(plan.date);
        job.status = statusForSchedule(job.scheduled_for, job.window);
      },
    });
  }
  if (plan.scheduledAt !== null) {
    changes.push({
      at: plan.scheduledAt,
      event: 'job.scheduled',
      apply: (job) => {
        job.scheduled_for = dateOf(plan.date);
        job.window = windowOf(plan.window);
        job.crew = seats();
        job.status = statusForSchedule(job.scheduled_for, job.window);
      },
    });
  }
  plan.crew.forEach((seat, index) => {
    if (seat.acceptedAt === null) return;
    changes.push({
      at: seat.acceptedAt,
      event: 'staff.accepted',
      apply: (job) => {
        const member = job.crew[index];
        if (member) member.accepted = true;
      },
    });
  });
  if (plan.cancelledAt !== null) {
    changes.push({
      at: plan.cancelledAt,
      apply: (job) => {
        if (!CANCELLABLE_JOB_STATUSES.includes(job.status)) throw new Error(`job ${job.id} cancelled from ${job.status}`);
        job.status = 'cancelled';
      },
    });
  }
  if (JOB_STATUSES_WITH_CONTAINERS.includes(plan.status) && plan.workStart !== null) {
    changes.push({
      at: plan.workStart,
      apply: (job) => {
        job.status = 'in_progress';
      },
    });
  }
  for (const at of plan.containerTimes)
    changes.push({
      at,
      apply: (job) => {
        job.container_count += 1;
      },
    });
  if (plan.closedAt !== null) {
    const invoice = plan.invoiceId;
    changes.push({
      at: plan.closedAt,
      event: 'job.closed',
      apply: (job) => {
        job.status = 'closed';
        job.invoice = invoice;
      },
    });
  }
  if (plan.billedAt !== null)
    changes.push({
      at: plan.billedAt,
      apply: (job) => {
        job.status = 'billed';
      },
    });

  const life = liveLife(initial, plan.createdAt, changes, {
    clone: cloneJob,
    touch: (job, at) => {
      job.updated_at = at;
    },
    createdEvent: 'job.created',
  });
  if (life.record.status !== plan.status) {
    throw new Error(`job ${plan.id} replayed to ${life.record.status}, planned ${plan.status}`);
  }
  plan.record = life.record;
  plan.snapshots = life.snapshots;
}
