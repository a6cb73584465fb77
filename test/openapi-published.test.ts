// The committed openapi.json is the document the sandbox serves with its default configuration,
// to the byte once `servers` is set aside: every operationId, summary, description, example and
// rule. A client generated from the file (docs/toolkit.md) is one generated from a
// running sandbox. The Worker's document is held to the same file in test/workerd-http/.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../src/index.js';
import { PUBLISHED_SERVER, published, STALE, withoutServers } from './openapi-published.js';

describe('openapi.json, committed', () => {
  it('is what GET /openapi.json answers with the default configuration, servers aside', async () => {
    const response = await createSandbox().fetch(new Request('http://sandbox.test:9000/openapi.json'));
    expect(response.status).toBe(200);
    const served = (await response.json()) as Record<string, unknown>;
    expect(served.servers).toEqual([{ url: 'http://sandbox.test:9000', description: 'This sandbox' }]);
    expect(withoutServers(served), STALE).toBe(withoutServers(published));
    expect(published.servers).toEqual([{ url: PUBLISHED_SERVER, description: 'This sandbox' }]);
  });

  it('names the operations as clients generated from it call them, one per row of the reference', () => {
    // The reference's endpoint tables, each row with the operationId the document gives it: the
    // names of a generated client's methods, which a change would break for every integrator.
    const expected = {
      'GET /v1/clients': 'listClients',
      'POST /v1/clients': 'createClient',
      'GET /v1/clients/{id}': 'getClient',
      'PATCH /v1/clients/{id}': 'updateClient',
      'GET /v1/sites': 'listSites',
      'POST /v1/sites': 'createSite',
      'GET /v1/sites/{id}': 'getSite',
      'PATCH /v1/sites/{id}': 'updateSite',
      'GET /v1/waste_profiles': 'listWasteProfiles',
      'POST /v1/waste_profiles': 'createWasteProfile',
      'GET /v1/waste_profiles/{id}': 'getWasteProfile',
      'PATCH /v1/waste_profiles/{id}': 'updateWasteProfile',
      'GET /v1/jobs': 'listJobs',
      'POST /v1/jobs': 'createJob',
      'GET /v1/jobs/{id}': 'getJob',
      'PATCH /v1/jobs/{id}': 'updateJob',
      'POST /v1/jobs/{id}/cancel': 'cancelJob',
      'GET /v1/containers': 'listContainers',
      'GET /v1/containers/{id}': 'getContainer',
      'PATCH /v1/containers/{id}': 'updateContainer',
      'GET /v1/manifests': 'listManifests',
      'POST /v1/manifests': 'createManifest',
      'GET /v1/manifests/{id}': 'getManifest',
      'GET /v1/invoices': 'listInvoices',
      'GET /v1/invoices/{id}': 'getInvoice',
      'GET /v1/webhook_endpoints': 'listWebhookEndpoints',
      'POST /v1/webhook_endpoints': 'createWebhookEndpoint',
      'DELETE /v1/webhook_endpoints/{id}': 'deleteWebhookEndpoint',
      'GET /v1/events': 'listEvents',
      'GET /v1/events/{id}': 'getEvent',
    };
    const paths = published.paths as Record<string, Record<string, { operationId: string }>>;
    const named = Object.fromEntries(
      Object.entries(paths).flatMap(([path, item]) =>
        Object.entries(item).map(([method, operation]) => [`${method.toUpperCase()} ${path}`, operation.operationId]),
      ),
    );
    expect(named).toEqual(expected);
  });
});
