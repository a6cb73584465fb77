/** The twelve event types of the reference ("Events"), with the object each one carries. */
export const EVENT_OBJECTS = {
  'job.created': 'job',
  'job.scheduled': 'job',
  'job.closed': 'job',
  // staff.accepted carries the job whose assignment was accepted (the reference leaves it open).
  'staff.accepted': 'job',
  'container.received': 'container',
  'container.storage_status_changed': 'container',
  'manifest.ready_for_signature': 'manifest',
  'manifest.signed': 'manifest',
  'profile.approved': 'waste_profile',
  'profile.expiring': 'waste_profile',
  'invoice.sent': 'invoice',
  'invoice.paid': 'invoice',
} as const;

export type EventType = keyof typeof EVENT_OBJECTS;
export const EVENT_TYPES = Object.keys(EVENT_OBJECTS) as [EventType, ...EventType[]];
