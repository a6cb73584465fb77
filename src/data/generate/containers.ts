// Containers: filled during the job's window, weighed when full, trucked to the receiving
// facility after the job, then consolidated and shipped on. Statuses move only forward,
// one step at a time (containers/transitions.ts); storage status is where a received
// container stands against the facility's ten-day transfer limit (40 CFR 263.12).
import type { Container } from '../../resources/containers/schema.js';
import { isReceived, nextContainerStatus } from '../../resources/containers/transitions.js';
import { JOB_STATUSES_WITH_CONTAINERS } from '../../resources/jobs/transitions.js';
import { DAY, HOUR, MINUTE, NOW, formatTimestamp, type Random } from '../random.js';
import type { GeneratorContext } from './context.js';
import { CONTAINER_KIND_BY_NAME, type ContainerKind } from './fixtures.js';
import type { JobPlan } from './jobs.js';
import { liveLife, type Life, type LifeChange, type Snapshot } from './life.js';
import type { JobType, ProfilePlan } from './profiles.js';

const APPROACHING_AFTER = 7 * DAY;
const LIMIT_AFTER = 10 * DAY;

interface ContainerTimeline {
  job: JobPlan;
  profile: ProfilePlan | null;
  kind: ContainerKind;
  createdAt: number;
  /** When it was closed and weighed; null while open. */
  fullAt: number | null;
  weight: number;
  receivedAt: number | null;
}

export interface ContainerPlan extends ContainerTimeline {
  record: Container;
  snapshots: Snapshot<Container>[];
}

const COUNT_RANGE: Readonly<Record<JobType, readonly [number, number]>> = {
  hhw_event: [16, 36],
  ci_pickup: [2, 10],
  lab_pack: [4, 14],
};

/** How long after receipt a container is bulked: mostly within the week, some at the limit. */
function consolidationDelay(random: Random): number {
  return random.weighted([
    [random.int(1 * DAY, 6 * DAY + 12 * HOUR), 80],
    [random.int(7 * DAY, 9 * DAY + 20 * HOUR), 15],
    [random.int(10 * DAY + HOUR, 13 * DAY), 5],
  ] as const);
}

/** The client's profiles approved and unexpired at `at`, lab packs for lab_pack jobs only. */
function activeProfiles(clientProfiles: readonly ProfilePlan[], job: JobPlan, at: number): ProfilePlan[] {
  const approved = clientProfiles.filter(
    (profile) => profile.approvedAt !== null && profile.expiresAt !== null && profile.approvedAt <= at && at < profile.expiresAt,
  );
  const fitting = approved.filter((profile) => profile.stream.lab_pack === (job.type === 'lab_pack'));
  return fitting.length > 0 ? fitting : approved;
}

export function generateContainers(context: GeneratorContext, jobs: readonly JobPlan[], profiles: readonly ProfilePlan[]): ContainerPlan[] {
  const { random, plan } = context;
  const working = jobs.filter((job) => JOB_STATUSES_WITH_CONTAINERS.includes(job.status));
  const counts = new Map<JobPlan, number>();
  for (const job of working) {
    const [min, max] = COUNT_RANGE[job.type];
    let count = random.int(min, max);
    // A job under way has only the containers filled so far.
    if (job.status === 'in_progress' && job.workStart !== null && job.workEnd !== null) {
      count = Math.max(2, Math.round((count * (NOW - job.workStart)) / (job.workEnd - job.workStart)));
    }
    counts.set(job, count);
  }
  // Top up the finished collection events until the account has its share of containers.
  const events = working.filter((job) => job.type === 'hhw_event' && job.status !== 'in_progress');
  let total = [...counts.values()].reduce((sum, count) => sum + count, 0);
  while (total < plan.minContainers && events.length > 0) {
    const job = random.pick(events);
    counts.set(job, (counts.get(job) ?? 0) + 1);
    total += 1;
  }

  const profilesOfClient = new Map<string, ProfilePlan[]>();
  for (const profile of profiles) {
    const list = profilesOfClient.get(profile.client.record.id) ?? [];
    list.push(profile);
    profilesOfClient.set(profile.client.record.id, list);
  }

  const containers: ContainerPlan[] = [];
  let inProgressIndex = 0;
  for (const job of working) {
    if (job.workStart === null || job.workEnd === null) throw new Error(`job ${job.id} has work but no window`);
    const count = counts.get(job) ?? 0;
    const underWay = job.status === 'in_progress';
    // Half the jobs under way are still filling their last container (and a few of those do
    // not yet know what is in it); the others are loaded and ready for their manifest.
    const stillFilling = underWay && inProgressIndex % 2 === 0;
    const unidentified = underWay && inProgressIndex % 4 === 0;
    if (underWay) inProgressIndex += 1;
    const fillUntil = underWay ? NOW - (stillFilling ? 15 : 60) * MINUTE : job.workEnd - 30 * MINUTE;
    const span = fillUntil - job.workStart;
    // One truck to the facility after the job; containers are checked in one by one.
    let receivedAt = underWay ? null : job.workEnd + random.int(2 * HOUR, 28 * HOUR);
    for (let index = 0; index < count; index++) {
      const createdAt = job.workStart + Math.floor(((index + random.next() * 0.9) * span) / count) + MINUTE;
      const last = index === count - 1;
      const open = stillFilling && last;
      const candidates = activeProfiles(profilesOfClient.get(job.client.record.id) ?? [], job, createdAt);
      if (candidates.length === 0) throw new Error(`client ${job.client.record.id} has no approved profile at job ${job.id}`);
      const profile = open && unidentified ? null : random.pick(candidates);
      const kindName = profile ? random.pick(profile.stream.container_kinds) : '55-gal steel drum, open head';
      const kind = CONTAINER_KIND_BY_NAME.get(kindName);
      if (!kind) throw new Error(`unknown container kind ${kindName}`);
      const fullAt = open
        ? null
        : Math.min(createdAt + random.int(3 * MINUTE, 25 * MINUTE), underWay ? NOW - MINUTE : fillUntil + 29 * MINUTE);
      const weight = random.int(kind.net_weight_lb.min, kind.net_weight_lb.max);
      const thisReceipt = receivedAt;
      if (receivedAt !== null) receivedAt += random.int(40, 180);
      const timeline: ContainerTimeline = { job, profile, kind, createdAt, fullAt, weight, receivedAt: thisReceipt };
      containers.push({ ...timeline, ...liveContainer(context, timeline) });
      job.containerTimes.push(createdAt);
    }
  }
  return containers;
}

function liveContainer(context: GeneratorContext, plan: ContainerTimeline): Life<Container> {
  const { random } = context;
  const initial: Container = {
    id: context.id('container'),
    object: 'container',
    job: plan.job.id,
    profile: plan.profile?.record.id ?? null,
    kind: plan.kind.kind,
    status: 'open',
    // 0 until weighed.
    weight_lb: 0,
    storage_status: null,
    received_at: null,
    created_at: formatTimestamp(plan.createdAt),
  };
  const advance = (container: Container) => {
    const next = nextContainerStatus(container.status);
    if (next === null) throw new Error(`container ${container.id} has no status after ${container.status}`);
    container.status = next;
  };
  const changes: LifeChange<Container>[] = [];
  if (plan.fullAt !== null) {
    const weight = plan.weight;
    changes.push({
      at: plan.fullAt,
      apply: (container) => {
        advance(container);
        container.weight_lb = weight;
      },
    });
  }
  const receivedAt = plan.receivedAt;
  if (receivedAt !== null) {
    // Receipt sets received_at and storage_status within_limit (docs/sample-data.md).
    changes.push({
      at: receivedAt,
      event: 'container.received',
      apply: (container) => {
        advance(container);
        if (!isReceived(container.status)) throw new Error(`container ${container.id} received as ${container.status}`);
        container.received_at = formatTimestamp(receivedAt);
        container.storage_status = 'within_limit';
      },
    });
    const consolidatedAt = receivedAt + consolidationDelay(random);
    const shippedAt = consolidatedAt + random.int(DAY, 8 * DAY);
    const storedUntil = Math.min(consolidatedAt, NOW + 1);
    if (receivedAt + APPROACHING_AFTER < storedUntil) {
      changes.push({
        at: receivedAt + APPROACHING_AFTER,
        event: 'container.storage_status_changed',
        apply: (container) => {
          container.storage_status = 'approaching_limit';
        },
      });
    }
    if (receivedAt + LIMIT_AFTER < storedUntil) {
      changes.push({
        at: receivedAt + LIMIT_AFTER,
        event: 'container.storage_status_changed',
        apply: (container) => {
          container.storage_status = 'at_limit';
        },
      });
    }
    if (consolidatedAt <= NOW) changes.push({ at: consolidatedAt, apply: advance });
    if (shippedAt <= NOW) changes.push({ at: shippedAt, apply: advance });
  }
  return liveLife(initial, plan.createdAt, changes, { clone: (container) => ({ ...container }) });
}

/** The container as it stood at `at` (the manifests' build at an earlier moment), or null before it existed. */
export function containerAt(plan: ContainerPlan, at: number): Container | null {
  if (plan.createdAt > at) return null;
  const weighed = plan.fullAt !== null && plan.fullAt <= at;
  return { ...plan.record, weight_lb: weighed ? plan.weight : 0 };
}
