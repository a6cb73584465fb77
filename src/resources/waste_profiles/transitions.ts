import type { PROFILE_STATUSES } from './schema.js';

type ProfileStatus = (typeof PROFILE_STATUSES)[number];

/** PATCH works only on a draft profile; an approved one is never edited (reference, Waste profile). */
export const EDITABLE_PROFILE_STATUSES: readonly ProfileStatus[] = ['draft'];

/** approved_by is set on approved and expired profiles, null before (the reference leaves it open). */
export function hasApprover(status: ProfileStatus): boolean {
  return status === 'approved' || status === 'expired';
}
