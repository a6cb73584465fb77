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

let lastTime = Number.NaN;
let lastText = '';

/**
 * ISO 8601 UTC to the second, like every sample timestamp. A write stamps two or three fields
 * with the same clock reading: the text of the last one is kept rather than formatted again.
 */
export function timestamp(date: Date): string {
  const time = date.getTime();
  if (time !== lastTime) {
    lastTime = time;
    lastText = date.toISOString().replace(/\.\d{3}Z$/, 'Z');
  }
  return lastText;
}
