// Waste profiles: each client's streams, approved by the receiving facility that takes them.
// Approvals last a year; a renewal is a new profile (reference, Waste profile: an approved
// profile is never edited), created and approved before its predecessor expires, so a stream
// in use is always covered.
import type { JOB_TYPES } from '../../resources/jobs/schema.js';
import { hasApprover } from '../../resources/waste_profiles/transitions.js';
import type { WasteProfile } from '../../resources/waste_profiles/schema.js';
import { DAY, formatTimestamp, HOUR, NOW } from '../random.js';
import type { ClientPlan } from './clients.js';
import type { GeneratorContext } from './context.js';
import { FACILITIES, streamCodes, WASTE_STREAMS, type Facility, type Management, type WasteStream } from './fixtures.js';
import { liveLife, type LifeChange, type Snapshot } from './life.js';

export type JobType = (typeof JOB_TYPES)[number];

/** How long an approval lasts, and when the facility warns that it is running out. */
export const APPROVAL_DAYS = 365;
const EXPIRING_NOTICE_DAYS = 30;

export interface ProfilePlan {
  record: WasteProfile;
  client: ClientPlan;
  stream: WasteStream;
  /** The facility that approves (or will approve) the profile. */
  facility: Facility;
  /** The approval's validity, [approvedAt, approvedAt + a year); null until approved. */
  approvedAt: number | null;
  expiresAt: number | null;
  snapshots: Snapshot<WasteProfile>[];
}

export interface ProfilesResult {
  profiles: ProfilePlan[];
  /** The job types each client's approved streams allow. */
  jobTypesByClient: ReadonlyMap<string, readonly JobType[]>;
}

const REGIONS: readonly (readonly string[])[] = [
  ['CA', 'NV', 'OR', 'WA', 'UT', 'AZ'],
  ['TX', 'KS', 'OK'],
];

function facilityFor(context: GeneratorContext, management: Management, state: string): Facility {
  const offering = FACILITIES.filter((facility) => facility.services.includes(management));
  const region = REGIONS.find((states) => states.includes(state)) ?? [];
  const tiers = [
    offering.filter((facility) => facility.address.state === state),
    offering.filter((facility) => region.includes(facility.address.state)),
    offering,
  ];
  const tier = tiers.find((candidates) => candidates.length > 0);
  if (!tier) throw new Error(`no facility offers ${management}`);
  return context.random.pick(tier);
}

interface ChosenStream {
  stream: WasteStream;
  /** Core streams are renewed every year; others may be dropped. */
  core: boolean;
}

function chooseStreams(context: GeneratorContext, client: ClientPlan): { chosen: ChosenStream[]; jobTypes: JobType[] } {
  const { random } = context;
  const { kind, state } = client.spec;
  const eligible = WASTE_STREAMS.filter((stream) => stream.client_kinds.includes(kind) && streamCodes(stream, state).length > 0);
  const labPacks = eligible.filter((stream) => stream.lab_pack);
  const bulk = eligible.filter((stream) => !stream.lab_pack);
  const take = (from: readonly WasteStream[], count: number, coreCount: number): ChosenStream[] =>
    random.sample(from, count).map((stream, index) => ({ stream, core: index < coreCount }));
  switch (kind) {
    case 'hhw_program':
      return { chosen: take(bulk, random.int(6, 8), 3), jobTypes: ['hhw_event', 'ci_pickup'] };
    case 'commercial_industrial': {
      const chosen = take(bulk, random.int(3, 5), 2);
      // A plant with a QC lab has its shelves lab-packed now and then.
      if (labPacks.length > 0 && random.chance(0.5)) {
        chosen.push(...take(labPacks, 1, 1));
        return { chosen, jobTypes: ['ci_pickup', 'lab_pack'] };
      }
      return { chosen, jobTypes: ['ci_pickup'] };
    }
    case 'laboratory':
      return {
        chosen: [...take(labPacks, random.int(4, 6), 2), ...take(bulk, random.int(1, 2), 1)],
        jobTypes: ['lab_pack', 'ci_pickup'],
      };
  }
}

interface ProfileTimes {
  createdAt: number;
  submittedAt: number | null;
  approvedAt: number | null;
}

function profileLife(
  context: GeneratorContext,
  client: ClientPlan,
  stream: WasteStream,
  facility: Facility,
  times: ProfileTimes,
): ProfilePlan {
  const { createdAt, submittedAt, approvedAt } = times;
  const initial: WasteProfile = {
    id: context.id('waste_profile'),
    object: 'waste_profile',
    client: client.record.id,
    name: stream.name,
    waste_codes: streamCodes(stream, client.spec.state),
    dot_description: stream.dot_description,
    status: 'draft',
    approved_by: null,
    created_at: formatTimestamp(createdAt),
    updated_at: formatTimestamp(createdAt),
  };
  // approved_by follows the status by the shared rule (set once approved, kept when expired).
  const moveTo = (status: WasteProfile['status']) => (profile: WasteProfile) => {
    profile.status = status;
    profile.approved_by = hasApprover(status) ? facility.name : null;
  };
  const changes: LifeChange<WasteProfile>[] = [];
  if (submittedAt !== null && submittedAt <= NOW) changes.push({ at: submittedAt, apply: moveTo('submitted') });
  const expiresAt = approvedAt === null ? null : approvedAt + APPROVAL_DAYS * DAY;
  if (approvedAt !== null && approvedAt <= NOW && expiresAt !== null) {
    changes.push({ at: approvedAt, event: 'profile.approved', apply: moveTo('approved') });
    const expiringAt = expiresAt - EXPIRING_NOTICE_DAYS * DAY;
    // The notice changes no field, but the record is stamped: an event's record carries the
    // event's time as updated_at.
    if (expiringAt <= NOW) changes.push({ at: expiringAt, event: 'profile.expiring', apply: () => {} });
    if (expiresAt <= NOW) changes.push({ at: expiresAt, apply: moveTo('expired') });
  }
  const life = liveLife(initial, createdAt, changes, {
    clone: (profile) => ({ ...profile, waste_codes: [...profile.waste_codes] }),
    touch: (profile, at) => {
      profile.updated_at = at;
    },
  });
  const approved = approvedAt !== null && approvedAt <= NOW;
  return {
    record: life.record,
    client,
    stream,
    facility,
    approvedAt: approved ? approvedAt : null,
    expiresAt: approved ? expiresAt : null,
    snapshots: life.snapshots,
  };
}

/** Submission then approval: a few hours to submit, two to sixteen days for the facility. */
function approvalTimes(context: GeneratorContext, createdAt: number): ProfileTimes {
  const submittedAt = createdAt + context.random.int(2 * HOUR, 4 * DAY);
  return { createdAt, submittedAt, approvedAt: submittedAt + context.random.int(2 * DAY, 16 * DAY) };
}

export function generateProfiles(context: GeneratorContext, clients: readonly ClientPlan[]): ProfilesResult {
  const { random } = context;
  const profiles: ProfilePlan[] = [];
  const jobTypesByClient = new Map<string, readonly JobType[]>();
  clients.forEach((client, clientIndex) => {
    const { chosen, jobTypes } = chooseStreams(context, client);
    jobTypesByClient.set(client.record.id, jobTypes);
    const facilities = new Map<Management, Facility>();
    const facilityOf = (stream: WasteStream): Facility => {
      let facility = facilities.get(stream.management);
      if (!facility) {
        facility = facilityFor(context, stream.management, client.spec.state);
        facilities.set(stream.management, facility);
      }
      return facility;
    };
    for (const { stream, core } of chosen) {
      // Core streams are profiled as soon as the client signs on, before any job (jobs start
      // 60 days after); others may be added later.
      let createdAt = client.createdAt + random.int(DAY, core ? 8 * DAY : 120 * DAY);
      for (;;) {
        const times = approvalTimes(context, createdAt);
        profiles.push(profileLife(context, client, stream, facilityOf(stream), times));
        if (times.approvedAt === null || times.approvedAt > NOW) break;
        // Renewal: a new profile 30–47 days before the approval runs out, approved in time.
        const renewalAt = times.approvedAt + random.int(318 * DAY, 335 * DAY);
        if (renewalAt > NOW || (!core && random.chance(0.3))) break;
        createdAt = renewalAt;
      }
    }
    // New streams being profiled right now: some docs need a draft and a submitted profile.
    const pending = clientIndex % 3 === 0 ? 'draft' : clientIndex % 3 === 1 ? 'submitted' : null;
    const unused = WASTE_STREAMS.filter(
      (stream) =>
        stream.client_kinds.includes(client.spec.kind) &&
        streamCodes(stream, client.spec.state).length > 0 &&
        !chosen.some((entry) => entry.stream.key === stream.key),
    );
    if (pending !== null && unused.length > 0) {
      const stream = random.pick(unused);
      const createdAt = NOW - random.int(3 * DAY, 25 * DAY);
      const submittedAt = pending === 'submitted' ? createdAt + random.int(HOUR, 2 * DAY) : null;
      profiles.push(profileLife(context, client, stream, facilityOf(stream), { createdAt, submittedAt, approvedAt: null }));
    }
  });
  return { profiles, jobTypesByClient };
}
