/** The sixteen scopes of the reference ("Authentication", 5). */
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

export type Scope = (typeof SCOPES)[number];

export const READ_SCOPES: readonly Scope[] = SCOPES.filter((scope) => scope.endsWith(':read'));
