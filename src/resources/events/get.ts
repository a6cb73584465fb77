import { getEndpoint } from '../endpoints.js';
import { Event } from './schema.js';

export const getEvent = getEndpoint({
  operationId: 'getEvent',
  collection: 'events',
  object: 'event',
  scope: 'events:read',
  summary: 'Retrieve an event',
  item: Event,
});
