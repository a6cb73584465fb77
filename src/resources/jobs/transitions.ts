import type { JobStatus } from './schema.js';

// The reference ("States and transitions", Job) and the sandbox's stricter rules (a cancel or
// PATCH from any other status is a 422), as data: the handlers and the sample-data generator both read these.

/** Statuses a job may be cancelled from: work has not started. */
export const CANCELLABLE_JOB_STATUSES: readonly JobStatus[] = ['draft', 'scheduled'];

/** Statuses in which PATCH may still change a job. */
export const EDITABLE_JOB_STATUSES: readonly JobStatus[] = ['draft', 'scheduled', 'in_progress'];

/** Statuses in which a job has containers (work has started). */
export const JOB_STATUSES_WITH_CONTAINERS: readonly JobStatus[] = ['in_progress', 'closed', 'billed'];

/** Statuses in which a job has its invoice: closing writes it. */
export const JOB_STATUSES_WITH_INVOICE: readonly JobStatus[] = ['closed', 'billed'];

/** A job is scheduled once it has both a date and a window, a draft otherwise. */
export function statusForSchedule(scheduledFor: string | null, window: unknown): 'draft' | 'scheduled' {
  return scheduledFor !== null && window !== null ? 'scheduled' : 'draft';
}
