// Start-up builds no endpoint's schemas (docs/operations.md, "Start-up"): each is built when a
// request first needs it, or the OpenAPI document. Observed through the names the schemas give
// themselves for the document (`.openapi('Job')` as each named schema is built), on a fresh copy
// of the sources: other files of this worker have built theirs long ago. Nor does a schema's
// first parse compile zod's fast path, which only a second parse pays for.
import { z } from '@hono/zod-openapi';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { watchZodCompiles } from './zod-compiles.js';

const KEY = 'svc_test_sandbox_public';
// The document's named components, as /openapi.json lists them under components.schemas.
const RECORDS = ['Client', 'Site', 'WasteProfile', 'Job', 'Container', 'Manifest', 'Invoice', 'WebhookEndpoint', 'Event'];

/** The names of the schemas built from now on. */
function watchBuilds(): string[] {
  const built: string[] = [];
  const openapi = z.ZodType.prototype.openapi;
  vi.spyOn(z.ZodType.prototype, 'openapi').mockImplementation(function (this: z.ZodType, ...args: unknown[]) {
    if (typeof args[0] === 'string') built.push(args[0]);
    return (openapi as (...given: unknown[]) => z.ZodType).apply(this, args);
  });
  return built;
}

async function freshSandbox() {
  vi.resetModules();
  const { createSandbox } = await import('../src/index.js');
  return createSandbox();
}

describe('start-up builds no schema before a request needs it', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('creating the sandbox builds none; the first list builds no named schema; a create builds its body, not the others', async () => {
    const built = watchBuilds();
    const sandbox = await freshSandbox();
    expect(built).toEqual([]);

    const list = await sandbox.fetch(new Request('http://sandbox.test/v1/jobs?limit=1', { headers: { Authorization: `Bearer ${KEY}` } }));
    expect(list.status).toBe(200);
    // The list's query has no named part; no record schema is needed to answer.
    expect(built).toEqual([]);

    const bad = await sandbox.fetch(
      new Request('http://sandbox.test/v1/sites', {
        method: 'POST',
        headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ client: 'cli_x', name: 'Depot' }),
      }),
    );
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { param: string } }).error.param).toBe('address');
    expect(built.sort()).toEqual(['AddressInput', 'CreateSiteBody']);
    for (const name of RECORDS) expect(built).not.toContain(name);
  });

  it('the OpenAPI document builds every record schema, and the answer is the same a second time', async () => {
    const built = watchBuilds();
    const sandbox = await freshSandbox();
    const first = await sandbox.fetch(new Request('http://sandbox.test/openapi.json'));
    expect(first.status).toBe(200);
    const document = (await first.json()) as { components: { schemas: Record<string, unknown> } };
    for (const name of RECORDS) {
      expect(built).toContain(name);
      expect(document.components.schemas).toHaveProperty(name);
    }
    // Built once: a second document names nothing new.
    const count = built.length;
    const second = await sandbox.fetch(new Request('http://sandbox.test/openapi.json'));
    expect(await second.json()).toEqual(document);
    expect(built.length).toBe(count);
  });

  it("an endpoint's first request compiles no parser; its second does, and both answer alike", async () => {
    const compiled = watchZodCompiles();
    const sandbox = await freshSandbox();
    const create = () =>
      sandbox.fetch(
        new Request('http://sandbox.test/v1/webhook_endpoints', {
          method: 'POST',
          headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ url: 'https://receiver.example/hooks', events: ['job.created'] }),
        }),
      );
    const first = await create();
    expect(first.status).toBe(201);
    expect(compiled).toEqual([]);
    const second = await create();
    expect(second.status).toBe(201);
    expect(compiled.length).toBeGreaterThan(0);
    const fields = (response: Record<string, unknown>) => ({ ...response, id: undefined, secret: undefined, created_at: undefined });
    expect(fields((await second.json()) as Record<string, unknown>)).toEqual(fields((await first.json()) as Record<string, unknown>));
  });
});
