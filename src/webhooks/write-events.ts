// The events a write emits (docs/events-from-writes.md): the reference's event object,
// whose data.object is the record exactly as the write answered it. Built as text around the
// answer's own bytes, so the two can never differ by a byte.
import type { Mint } from '../clock/mint.js';
import type { EventType } from '../resources/events/types.js';
import { timestamp } from '../schemas/new-records.js';

export interface WriteEvent {
  id: string;
  type: EventType;
  /** The event object's JSON, as delivered: id, object, type, data, created_at. */
  body: string;
}

/** A new event of the write answered by `recordJson`; its ID is derived when the clock is pinned. */
export function writeEvent(mint: Mint, type: EventType, recordJson: string): WriteEvent {
  const id = mint.id('event');
  const body = `{"id":"${id}","object":"event","type":"${type}","data":{"object":${recordJson}},"created_at":"${timestamp(mint.now)}"}`;
  return { id, type, body };
}

/** Where a write's events go: a webhook receiver, an in-process callback, or both. */
export interface EventSink {
  /**
   * Takes the event at once (or `afterMs` later: the second delivery of duplicate_event); the
   * promise (for Workers' waitUntil) settles when its delivery ends.
   */
  emit(event: WriteEvent, afterMs?: number): Promise<void> | undefined;
}
