import { defineEndpoint, reply } from '../../http/endpoint.js';
import { mergeMetadata } from '../../schemas/input.js';
import { findRecord } from '../endpoints.js';
import { Site, UpdateSiteBody } from './schema.js';

export const updateSite = defineEndpoint({
  operationId: 'updateSite',
  method: 'PATCH',
  path: '/v1/sites/{id}',
  pathId: 'site',
  scope: 'sites:write',
  summary: 'Update a site; only the fields sent change',
  body: UpdateSiteBody,
  readonlyFields: ['id', 'object', 'client', 'address', 'epa_id', 'created_at'],
  success: { status: 200, schema: Site, description: 'The site with the change applied' },
  handle({ account, id, body }) {
    const site = findRecord(account, 'sites', 'site', id);
    // A site has no updated_at in the reference, so nothing records the time of the change.
    const updated: Site = {
      ...site,
      name: body.name ?? site.name,
      access_notes: body.access_notes ?? site.access_notes,
      metadata: mergeMetadata(site.metadata, body.metadata),
    };
    return reply(200, updated);
  },
});
