// Events: the snapshots taken while replaying each record's life, in time order, each given an
// ID. The newest-first listing is the store's business.
import type { Event } from '../../resources/events/schema.js';
import { EVENT_TYPES } from '../../resources/events/types.js';
import { formatTimestamp } from '../random.js';
import type { GeneratorContext } from './context.js';
import type { Snapshot } from './life.js';

export type EventObject = Event['data']['object'];

export function generateEvents(context: GeneratorContext, snapshots: readonly Snapshot<EventObject>[]): Event[] {
  // Ties on the same second are ordered by record ID and type so the sequence never depends
  // on the order generators ran in.
  const ordered = [...snapshots].sort(
    (a, b) =>
      a.at - b.at ||
      (a.object.id < b.object.id ? -1 : a.object.id > b.object.id ? 1 : 0) ||
      EVENT_TYPES.indexOf(a.type) - EVENT_TYPES.indexOf(b.type),
  );
  return ordered.map((snapshot) => ({
    id: context.id('event'),
    object: 'event',
    type: snapshot.type,
    data: { object: snapshot.object },
    created_at: formatTimestamp(snapshot.at),
  }));
}
