import { enumFilter } from '../../schemas/query.js';
import { listEndpoint } from '../endpoints.js';
import { Event } from './schema.js';
import { EVENT_TYPES } from './types.js';

export const listEvents = listEndpoint({
  operationId: 'listEvents',
  collection: 'events',
  object: 'event',
  scope: 'events:read',
  summary: 'List events, newest first',
  item: Event,
  listName: 'EventList',
  filters: () => ({ type: enumFilter(EVENT_TYPES) }),
  match: ({ type }) => (type === undefined ? undefined : (event) => event.type === type),
});
