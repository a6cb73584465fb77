import { defineEndpoint, reply } from '../../http/endpoint.js';
import { mergeMetadata } from '../../schemas/input.js';
import { timestamp } from '../../schemas/new-records.js';
import { findRecord } from '../endpoints.js';
import { CreateSiteBody, Site } from './schema.js';

export const createSite = defineEndpoint({
  operationId: 'createSite',
  method: 'POST',
  path: '/v1/sites',
  scope: 'sites:write',
  summary: 'Create a site for a client',
  body: CreateSiteBody,
  idempotent: true,
  success: { status: 201, schema: Site, description: 'The new site' },
  handlerErrors: [{ code: 'resource_missing', when: 'client names no client of the account' }],
  handle({ account, body, now, mint }) {
    findRecord(account, 'clients', 'client', body.client, 'client');
    const { line1, line2, city, state, postal_code } = body.address;
    const site: Site = {
      id: mint.id('site'),
      object: 'site',
      client: body.client,
      name: body.name,
      address: { line1, line2: line2 ?? null, city, state, postal_code },
      // POST /v1/sites takes no epa_id (the reference's input lists none); sample sites may have one.
      epa_id: null,
      access_notes: body.access_notes ?? '',
      metadata: mergeMetadata({}, body.metadata),
      created_at: timestamp(now),
    };
    return reply(201, site);
  },
});
