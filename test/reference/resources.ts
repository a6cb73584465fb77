// The reference's resources, transcribed by reading "Resources and their fields" (and SANDBOX.md
// where the reference leaves a choice open). Written here, never imported from src/: the tests
// hold the sandbox to these facts, so a change to src/ that drifts from the reference fails.

/** The fields of each object the API returns, as the reference's tables list them. */
export const FIELDS = {
  client: ['id', 'object', 'name', 'kind', 'epa_id', 'billing_email', 'portal_enabled', 'metadata', 'created_at', 'updated_at'],
  // "No updated_at field".
  site: ['id', 'object', 'client', 'name', 'address', 'epa_id', 'access_notes', 'metadata', 'created_at'],
  waste_profile: ['id', 'object', 'client', 'name', 'waste_codes', 'dot_description', 'status', 'approved_by', 'created_at', 'updated_at'],
  job: [
    'id',
    'object',
    'type',
    'client',
    'site',
    'status',
    'scheduled_for',
    'window',
    'crew',
    'container_count',
    'invoice',
    'metadata',
    'created_at',
    'updated_at',
  ],
  container: ['id', 'object', 'job', 'profile', 'kind', 'status', 'weight_lb', 'storage_status', 'received_at', 'created_at'],
  manifest: [
    'id',
    'object',
    'job',
    'manifest_tracking_number',
    'status',
    'submission_type',
    'generator',
    'designated_facility',
    'lines',
    'created_at',
    'updated_at',
  ],
  invoice: ['id', 'object', 'number', 'client', 'jobs', 'status', 'currency', 'amount_due', 'amount_paid', 'due_date', 'created_at'],
  webhook_endpoint: ['id', 'object', 'url', 'events', 'secret', 'enabled', 'created_at'],
  event: ['id', 'object', 'type', 'data', 'created_at'],
} as const;

export type ObjectName = keyof typeof FIELDS;

/** The fields of the objects inside records ("Notes" of the tables above). */
export const NESTED_FIELDS = {
  'site.address': ['line1', 'line2', 'city', 'state', 'postal_code'],
  'job.window': ['start', 'end'],
  'job.crew[]': ['name', 'role', 'accepted'],
  'manifest.generator': ['name', 'epa_id'],
  'manifest.designated_facility': ['name', 'epa_id'],
  'manifest.lines[]': ['profile', 'dot_description', 'waste_codes', 'containers', 'quantity', 'unit'],
  'event.data': ['object'],
} as const;

/** The list envelope, and the answer of DELETE /v1/webhook_endpoints/{id}. */
export const LIST_FIELDS = ['object', 'data', 'has_more', 'next_cursor'] as const;
export const DELETED_FIELDS = ['id', 'object', 'deleted'] as const;

/** Each object's ID prefix ("General conventions"). */
export const ID_PREFIXES: Readonly<Record<ObjectName, string>> = {
  client: 'cli_',
  site: 'site_',
  waste_profile: 'prof_',
  job: 'job_',
  container: 'cont_',
  manifest: 'man_',
  invoice: 'inv_',
  webhook_endpoint: 'we_',
  event: 'evt_',
};

/** The collection each object is listed under: /v1/<collection> ("Endpoints"). */
export const COLLECTION_OF: Readonly<Record<ObjectName, string>> = {
  client: 'clients',
  site: 'sites',
  waste_profile: 'waste_profiles',
  job: 'jobs',
  container: 'containers',
  manifest: 'manifests',
  invoice: 'invoices',
  webhook_endpoint: 'webhook_endpoints',
  event: 'events',
};

/** The twelve event types ("Events", "Event types"), in the reference's order. */
export const EVENT_TYPES = [
  'job.created',
  'job.scheduled',
  'job.closed',
  'staff.accepted',
  'container.received',
  'container.storage_status_changed',
  'manifest.ready_for_signature',
  'manifest.signed',
  'profile.approved',
  'profile.expiring',
  'invoice.sent',
  'invoice.paid',
] as const;

/**
 * Every enum of the reference: object, field and its values. SANDBOX.md ("Sample data"): every
 * value appears in account A. `nullable` where the reference says "enum or null".
 */
export const ENUMS: readonly { object: ObjectName; field: string; values: readonly string[]; nullable?: boolean }[] = [
  { object: 'client', field: 'kind', values: ['hhw_program', 'commercial_industrial', 'laboratory'] },
  { object: 'waste_profile', field: 'status', values: ['draft', 'submitted', 'approved', 'expired'] },
  { object: 'job', field: 'type', values: ['hhw_event', 'ci_pickup', 'lab_pack'] },
  { object: 'job', field: 'status', values: ['draft', 'scheduled', 'in_progress', 'closed', 'billed', 'cancelled'] },
  { object: 'container', field: 'status', values: ['open', 'full', 'received', 'consolidated', 'shipped'] },
  { object: 'container', field: 'storage_status', values: ['within_limit', 'approaching_limit', 'at_limit'], nullable: true },
  { object: 'manifest', field: 'status', values: ['draft', 'ready_for_signature', 'submitted', 'signed', 'corrected'] },
  { object: 'manifest', field: 'submission_type', values: ['FullElectronic', 'Hybrid', 'DataImage5Copy', 'Image'] },
  { object: 'invoice', field: 'status', values: ['draft', 'open', 'paid', 'void'] },
  { object: 'event', field: 'type', values: EVENT_TYPES },
];
