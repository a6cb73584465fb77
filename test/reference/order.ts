// The list orders, written from the reference ("Order is newest first except jobs, which are
// soonest first") and the sandbox's reading of "soonest first" (scheduled_for ascending, then
// window.start, then ID; undated jobs last). Records with the same created_at come by ID,
// highest first, as Stripe's lists do.

interface Dated {
  id: string;
  created_at: string;
}

interface Scheduled {
  id: string;
  scheduled_for: string | null;
  window: { start: string; end: string } | null;
}

/** Negative when `a` comes first. Timestamps are ISO 8601 in UTC, so they compare as instants. */
export function referenceNewestFirst(a: Dated, b: Dated): number {
  const at = Date.parse(a.created_at);
  const bt = Date.parse(b.created_at);
  if (at !== bt) return bt - at;
  return a.id === b.id ? 0 : a.id > b.id ? -1 : 1;
}

export function referenceSoonestFirst(a: Scheduled, b: Scheduled): number {
  // Undated last: a job without a date comes after every dated job.
  if ((a.scheduled_for === null) !== (b.scheduled_for === null)) return a.scheduled_for === null ? 1 : -1;
  if (a.scheduled_for !== b.scheduled_for) return (a.scheduled_for as string) < (b.scheduled_for as string) ? -1 : 1;
  const aStart = a.window?.start ?? null;
  const bStart = b.window?.start ?? null;
  if ((aStart === null) !== (bStart === null)) return aStart === null ? 1 : -1;
  if (aStart !== bStart) return (aStart as string) < (bStart as string) ? -1 : 1;
  return a.id === b.id ? 0 : a.id < b.id ? -1 : 1;
}
