// The reference's endpoint tables ("Endpoints"), transcribed: method, path, scope, success status.
// Written here by reading the reference, never imported from src/.

export interface ReferenceEndpoint {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  scope: string;
  /** 200, or 201 for creates. */
  status: 200 | 201;
}

export const ENDPOINTS: readonly ReferenceEndpoint[] = [
  { method: 'GET', path: '/v1/clients', scope: 'clients:read', status: 200 },
  { method: 'POST', path: '/v1/clients', scope: 'clients:write', status: 201 },
  { method: 'GET', path: '/v1/clients/{id}', scope: 'clients:read', status: 200 },
  { method: 'PATCH', path: '/v1/clients/{id}', scope: 'clients:write', status: 200 },
  { method: 'GET', path: '/v1/sites', scope: 'sites:read', status: 200 },
  { method: 'POST', path: '/v1/sites', scope: 'sites:write', status: 201 },
  { method: 'GET', path: '/v1/sites/{id}', scope: 'sites:read', status: 200 },
  { method: 'PATCH', path: '/v1/sites/{id}', scope: 'sites:write', status: 200 },
  { method: 'GET', path: '/v1/waste_profiles', scope: 'profiles:read', status: 200 },
  { method: 'POST', path: '/v1/waste_profiles', scope: 'profiles:write', status: 201 },
  { method: 'GET', path: '/v1/waste_profiles/{id}', scope: 'profiles:read', status: 200 },
  { method: 'PATCH', path: '/v1/waste_profiles/{id}', scope: 'profiles:write', status: 200 },
  { method: 'GET', path: '/v1/jobs', scope: 'jobs:read', status: 200 },
  { method: 'POST', path: '/v1/jobs', scope: 'jobs:write', status: 201 },
  { method: 'GET', path: '/v1/jobs/{id}', scope: 'jobs:read', status: 200 },
  { method: 'PATCH', path: '/v1/jobs/{id}', scope: 'jobs:write', status: 200 },
  { method: 'POST', path: '/v1/jobs/{id}/cancel', scope: 'jobs:write', status: 200 },
  { method: 'GET', path: '/v1/containers', scope: 'containers:read', status: 200 },
  { method: 'GET', path: '/v1/containers/{id}', scope: 'containers:read', status: 200 },
  { method: 'PATCH', path: '/v1/containers/{id}', scope: 'containers:write', status: 200 },
  { method: 'GET', path: '/v1/manifests', scope: 'manifests:read', status: 200 },
  { method: 'POST', path: '/v1/manifests', scope: 'manifests:write', status: 201 },
  { method: 'GET', path: '/v1/manifests/{id}', scope: 'manifests:read', status: 200 },
  { method: 'GET', path: '/v1/invoices', scope: 'invoices:read', status: 200 },
  { method: 'GET', path: '/v1/invoices/{id}', scope: 'invoices:read', status: 200 },
  { method: 'GET', path: '/v1/webhook_endpoints', scope: 'webhooks:read', status: 200 },
  { method: 'POST', path: '/v1/webhook_endpoints', scope: 'webhooks:write', status: 201 },
  { method: 'DELETE', path: '/v1/webhook_endpoints/{id}', scope: 'webhooks:write', status: 200 },
  { method: 'GET', path: '/v1/events', scope: 'events:read', status: 200 },
  { method: 'GET', path: '/v1/events/{id}', scope: 'events:read', status: 200 },
];

/** "Scopes (exact)" under Authentication: sixteen, no write scope for invoices or events. */
export const SCOPES = [
  'clients:read',
  'clients:write',
  'sites:read',
  'sites:write',
  'profiles:read',
  'profiles:write',
  'jobs:read',
  'jobs:write',
  'containers:read',
  'containers:write',
  'manifests:read',
  'manifests:write',
  'invoices:read',
  'webhooks:read',
  'webhooks:write',
  'events:read',
] as const;

/** The POST endpoints that take Idempotency-Key. */
export const IDEMPOTENT_POSTS = [
  '/v1/clients',
  '/v1/sites',
  '/v1/waste_profiles',
  '/v1/jobs',
  '/v1/jobs/{id}/cancel',
  '/v1/manifests',
  '/v1/webhook_endpoints',
] as const;
