// The route table and its zod schemas are meant to generate the OpenAPI 3.1 document (STYLE.md,
// habit 2). The document is not served yet; this keeps the schemas generatable as they change.
import { OpenAPIHono } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../src/resources/index.js';

function documentOfRouteTable() {
  const registry = new OpenAPIHono();
  for (const endpoint of ENDPOINTS) {
    registry.openAPIRegistry.registerPath({
      method: endpoint.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete',
      path: endpoint.path,
      operationId: endpoint.operationId,
      summary: endpoint.summary,
      security: [{ bearer: [endpoint.scope] }],
      request: {
        ...(endpoint.query ? { query: endpoint.query as never } : {}),
        ...(endpoint.body ? { body: { content: { 'application/json': { schema: endpoint.body } } } } : {}),
      },
      responses: {
        [endpoint.success.status]: {
          description: endpoint.success.description,
          content: { 'application/json': { schema: endpoint.success.schema } },
        },
      },
    });
  }
  return registry.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 'Waste Operations API', version: 'v1' } });
}

describe('OpenAPI 3.1 from the route table', () => {
  const document = documentOfRouteTable();

  it('has every operation of the reference', () => {
    const operations = Object.values(document.paths ?? {}).flatMap((item) =>
      Object.values(item as Record<string, { operationId?: string }>).map((operation) => operation.operationId),
    );
    expect(operations.sort()).toEqual(ENDPOINTS.map((endpoint) => endpoint.operationId).sort());
  });

  it('names a component for every resource and request body', () => {
    const components = Object.keys(document.components?.schemas ?? {});
    for (const name of ['Client', 'Site', 'WasteProfile', 'Job', 'Container', 'Manifest', 'Invoice', 'WebhookEndpoint', 'Event']) {
      expect(components).toContain(name);
    }
    for (const name of ['CreateJobBody', 'UpdateJobBody', 'CreateWebhookEndpointBody', 'CreateManifestBody'])
      expect(components).toContain(name);
  });

  it('keeps the strictness of the schemas and the list parameters', () => {
    const job = document.components?.schemas?.Job as { additionalProperties?: boolean; required?: string[] };
    expect(job.additionalProperties).toBe(false);
    expect(job.required).toContain('crew');
    const paths = document.paths as Record<string, { get: { parameters: { name: string }[] } }>;
    const listJobs = paths['/v1/jobs']?.get;
    expect(listJobs).toBeDefined();
    expect(listJobs?.parameters.map((parameter) => parameter.name).sort()).toEqual(
      ['client', 'limit', 'scheduled_from', 'starting_after', 'status', 'type'].sort(),
    );
  });
});
