// A record's life replayed: start from the record as created, apply its changes in time order,
// and keep a copy at each change that emits an event. The current record is what is left at
// the end, so an event's data.object is always the same record earlier in its life
// (reference, "Events": the record as it stands right after the change).
import type { EventType } from '../../resources/events/types.js';
import { formatTimestamp, NOW } from '../random.js';

export interface LifeChange<T> {
  at: number;
  apply: (record: T) => void;
  event?: EventType;
}

/** A copy of a record taken when an event was emitted. */
export interface Snapshot<T> {
  type: EventType;
  at: number;
  object: T;
}

export interface LifeOptions<T> {
  clone: (record: T) => T;
  /** For records with updated_at: stamp it with the time of each change. */
  touch?: (record: T, at: string) => void;
  /** The event emitted by creation itself (job.created). */
  createdEvent?: EventType;
}

export interface Life<T> {
  record: T;
  snapshots: Snapshot<T>[];
}

export function liveLife<T>(initial: T, createdAt: number, changes: LifeChange<T>[], options: LifeOptions<T>): Life<T> {
  const record = initial;
  const snapshots: Snapshot<T>[] = [];
  if (options.createdEvent) snapshots.push({ type: options.createdEvent, at: createdAt, object: options.clone(record) });
  // Stable sort: changes at the same second keep the order they were listed in.
  const ordered = [...changes].sort((a, b) => a.at - b.at);
  for (const change of ordered) {
    if (change.at < createdAt) throw new Error(`change at ${formatTimestamp(change.at)} before creation`);
    if (change.at > NOW) throw new Error(`change at ${formatTimestamp(change.at)} after the sample clock`);
    change.apply(record);
    options.touch?.(record, formatTimestamp(change.at));
    if (change.event) snapshots.push({ type: change.event, at: change.at, object: options.clone(record) });
  }
  return { record, snapshots };
}
