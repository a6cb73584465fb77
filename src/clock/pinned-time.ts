// The pinned clock's timestamp (docs/snapshot-tests.md): RFC 3339 in UTC to the second,
// exactly as the API writes its own timestamps, so a value copied from an answer pins the clock.
import { timestamp } from '../schemas/new-records.js';

export const PINNED_TIME_EXAMPLE = '2026-03-02T17:00:00Z';

/** The instant, or undefined when the text is not a real UTC time written as the API writes it. */
export function parsePinnedTime(text: string): Date | undefined {
  const date = new Date(text);
  // The round trip is the whole rule: only a time the API would write comes back as the same text.
  // Date reads other forms (a date alone, an offset, milliseconds) and rolls 2026-02-30 over to
  // March; each comes back written otherwise, so each is refused.
  if (Number.isNaN(date.getTime()) || timestamp(date) !== text) return undefined;
  return date;
}

/** What a pinned time must look like, for the messages of the header, the variable and the option. */
export function pinnedTimeRule(received: string): string {
  return `must be a UTC time in RFC 3339 with seconds, as the API writes them (such as ${PINNED_TIME_EXAMPLE}); received ${JSON.stringify(received.length > 60 ? `${received.slice(0, 60)}…` : received)}`;
}
