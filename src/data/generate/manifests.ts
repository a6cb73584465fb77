// Manifests: one per job with containers whose generator has an EPA ID (the
// client's, or the site's when the client has none). Lines are always the build of the job's
// containers at that moment (resources/manifests/lines.ts).
//
// The reference leaves the transitions open; the sample walks the statuses in the order the
// reference lists them: draft while being built, ready_for_signature once complete and
// awaiting the generator's signature (tracking number assigned), submitted when the generator
// has signed and the load is on its way, signed when the receiving facility signs for it, and
// corrected after a correction to a signed manifest.
import type { Container } from '../../resources/containers/schema.js';
import { JOB_STATUSES_WITH_CONTAINERS } from '../../resources/jobs/transitions.js';
import { buildManifestLines } from '../../resources/manifests/lines.js';
import { MANIFEST_STATUSES, SUBMISSION_TYPES, type Manifest } from '../../resources/manifests/schema.js';
import type { WasteProfile } from '../../resources/waste_profiles/schema.js';
import { DAY, formatTimestamp, HOUR, MINUTE, NOW, type Random } from '../random.js';
import { containerAt, type ContainerPlan } from './containers.js';
import type { GeneratorContext } from './context.js';
import { FACILITIES } from './fixtures.js';
import type { JobPlan } from './jobs.js';
import { liveLife, type LifeChange, type Snapshot } from './life.js';
import type { ProfilePlan } from './profiles.js';

type ManifestStatus = (typeof MANIFEST_STATUSES)[number];
type SubmissionType = (typeof SUBMISSION_TYPES)[number];

export interface ManifestPlan {
  record: Manifest;
  snapshots: Snapshot<Manifest>[];
}

/**
 * Sample tracking numbers: nine digits starting 000, then the issuer suffix: ELC for numbers
 * the e-Manifest system issues, a registered printer's suffix on paper forms.
 */
function trackingNumber(random: Random, type: SubmissionType, used: Set<string>): string {
  const suffix = type === 'FullElectronic' || type === 'Hybrid' ? 'ELC' : random.pick(['JJK', 'FLE', 'GBF']);
  for (;;) {
    const number = `000${String(random.int(0, 999999)).padStart(6, '0')}${suffix}`;
    if (!used.has(number)) {
      used.add(number);
      return number;
    }
  }
}

function byCreation(a: ContainerPlan, b: ContainerPlan): number {
  // The order the HTTP layer reads a job's containers in: created_at, then ID.
  if (a.record.created_at !== b.record.created_at) return a.record.created_at < b.record.created_at ? -1 : 1;
  return a.record.id < b.record.id ? -1 : a.record.id > b.record.id ? 1 : 0;
}

export function generateManifests(
  context: GeneratorContext,
  jobs: readonly JobPlan[],
  containers: readonly ContainerPlan[],
  profiles: readonly ProfilePlan[],
): ManifestPlan[] {
  const { random, id } = context;
  const profilesById = new Map<string, WasteProfile>(profiles.map((profile) => [profile.record.id, profile.record]));
  const containersByJob = new Map<JobPlan, ContainerPlan[]>();
  for (const container of containers) {
    const list = containersByJob.get(container.job) ?? [];
    list.push(container);
    containersByJob.set(container.job, list);
  }
  const usedNumbers = new Set<string>();
  const manifests: ManifestPlan[] = [];
  let loadedUnderWay = 0;
  let billedCount = 0;

  for (const job of jobs) {
    if (!JOB_STATUSES_WITH_CONTAINERS.includes(job.status) || job.workStart === null) continue;
    const generatorId = job.client.record.epa_id ?? job.site.record.epa_id;
    if (generatorId === null) continue;
    const own = [...(containersByJob.get(job) ?? [])].sort(byCreation);
    const linesAt = (at: number) =>
      buildManifestLines(
        own.map((container) => containerAt(container, at)).filter((container): container is Container => container !== null),
        profilesById,
      );
    const firstProfiled = own.find((container) => container.profile !== null)?.profile;
    const facility = firstProfiled?.facility ?? profiles.find((profile) => profile.client === job.client)?.facility ?? FACILITIES[0];
    if (!facility) throw new Error('no facilities');

    const index = manifests.length;
    const submissionType: SubmissionType =
      SUBMISSION_TYPES[index] ??
      random.weighted([
        ['FullElectronic', 25],
        ['Hybrid', 50],
        ['DataImage5Copy', 15],
        ['Image', 10],
      ] as const);

    // The moments of the manifest's life, by the job's progress.
    const underWay = job.status === 'in_progress';
    const lastFull = Math.max(...own.map((container) => container.fullAt ?? container.createdAt));
    const lastReceipt = Math.max(...own.map((container) => container.receivedAt ?? 0));
    const createdAt = job.workStart + random.int(2 * MINUTE, underWay ? 20 * MINUTE : 60 * MINUTE);
    const times: Partial<Record<ManifestStatus, number>> = {};
    let target: ManifestStatus;
    if (underWay) {
      const stillFilling = own.some((container) => container.fullAt === null);
      target = stillFilling ? 'draft' : loadedUnderWay++ % 2 === 0 ? 'ready_for_signature' : 'submitted';
    } else {
      target = job.status === 'billed' && billedCount++ % 7 === 3 ? 'corrected' : 'signed';
    }
    const readyAt = Math.max(createdAt + 5 * MINUTE, lastFull + random.int(2 * MINUTE, 20 * MINUTE));
    const submittedAt = readyAt + random.int(5 * MINUTE, underWay ? 14 * MINUTE : 40 * MINUTE);
    if (target !== 'draft') times.ready_for_signature = readyAt;
    if (target !== 'draft' && target !== 'ready_for_signature') times.submitted = submittedAt;
    if (target === 'signed' || target === 'corrected') {
      const signedAt = Math.max(
        lastReceipt + MINUTE,
        Math.min(lastReceipt + random.int(15 * MINUTE, 18 * HOUR), NOW - random.int(MINUTE, 30 * MINUTE)),
      );
      times.signed = signedAt;
      const correctedAt = signedAt + random.int(2 * DAY, 25 * DAY);
      if (target === 'corrected' && correctedAt <= NOW) times.corrected = correctedAt;
    }

    const initial: Manifest = {
      id: id('manifest'),
      object: 'manifest',
      job: job.id,
      // Null while draft (reference, manifest).
      manifest_tracking_number: null,
      status: 'draft',
      submission_type: submissionType,
      generator: { name: job.client.record.name, epa_id: generatorId },
      designated_facility: { name: facility.name, epa_id: facility.epa_id },
      lines: linesAt(createdAt),
      created_at: formatTimestamp(createdAt),
      updated_at: formatTimestamp(createdAt),
    };
    const number = trackingNumber(random, submissionType, usedNumbers);
    const events: Partial<Record<ManifestStatus, 'manifest.ready_for_signature' | 'manifest.signed'>> = {
      ready_for_signature: 'manifest.ready_for_signature',
      signed: 'manifest.signed',
    };
    const changes: LifeChange<Manifest>[] = [];
    for (const status of MANIFEST_STATUSES) {
      const at = times[status];
      if (at === undefined) continue;
      changes.push({
        at,
        event: events[status],
        apply: (manifest) => {
          manifest.status = status;
          manifest.manifest_tracking_number = number;
          manifest.lines = linesAt(at);
        },
      });
    }
    const life = liveLife(initial, createdAt, changes, {
      clone: (manifest) => ({
        ...manifest,
        generator: { ...manifest.generator },
        designated_facility: { ...manifest.designated_facility },
        lines: manifest.lines.map((line) => ({ ...line, waste_codes: [...line.waste_codes] })),
      }),
      touch: (manifest, at) => {
        manifest.updated_at = at;
      },
    });
    // The lines are the build of the containers as they are now, whatever the status.
    life.record.lines = linesAt(NOW);
    manifests.push(life);
  }
  return manifests;
}
