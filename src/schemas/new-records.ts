// What a write makes that the sample data does not hold: fresh IDs and real-clock timestamps.
import { randomBase62 } from '../random-text.js';
import { ID_BODY_LENGTH, ID_PREFIXES, type ObjectType } from './common.js';

/** A new ID for a record created by a write; never one of the sample IDs in practice (62^14). */
export function newId(object: ObjectType): string {
  return `${ID_PREFIXES[object]}_${randomBase62(ID_BODY_LENGTH)}`;
}

/** A webhook signing secret, shown once in the create response. */
export function newWebhookSecret(): string {
  return `whsec_${randomBase62(32)}`;
}

/** ISO 8601 UTC to the second, like every sample timestamp: toISOString without its milliseconds. */
export function timestamp(date: Date): string {
  return `${date.toISOString().slice(0, -5)}Z`;
}
