// /openapi.json, /docs, /docs/errors and Swagger UI's files on Workers: the files come from
// Workers Static Assets through the ASSETS binding, so the reference page works offline there too.
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import worker from '../../src/worker.js';
import { call } from './support/worker.js';

describe('docs on Workers', () => {
  it('serves the OpenAPI document without a key, naming its own origin', async () => {
    const result = await call('/openapi.json', { key: null });
    expect(result.status, result.text).toBe(200);
    const document = result.json as { openapi: string; servers: { url: string }[]; paths: object };
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers[0]?.url).toBe('https://sandbox.example');
    expect(Object.keys(document.paths)).toContain('/v1/jobs/{id}/cancel');
  });

  it('serves the reference page and its script, under a policy of its own origin only', async () => {
    const page = await call('/docs', { key: null });
    expect(page.status).toBe(200);
    expect(page.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('Content-Security-Policy')).toContain("default-src 'self'");
    expect(page.text).toContain('<script src="/docs/swagger-ui-bundle.js"></script>');
    const init = await call('/docs/init.js', { key: null });
    expect(init.text).toContain('preauthorizeApiKey(\'bearer\', "svc_test_sandbox_public")');
  });

  it("serves Swagger UI's files from the static assets", async () => {
    const bundle = await call('/docs/swagger-ui-bundle.js', { key: null });
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('Content-Type')).toBe('text/javascript; charset=utf-8');
    expect(bundle.text.length).toBeGreaterThan(1_000_000);
    expect(bundle.text).toContain('SwaggerUIBundle');
    const css = await call('/docs/swagger-ui.css', { key: null });
    expect(css.status).toBe(200);
    expect(css.text).toContain('.swagger-ui');
  });

  it('serves the error reference with an anchor per code', async () => {
    const result = await call('/docs/errors', { key: null });
    expect(result.status).toBe(200);
    expect(result.text).toContain('<section id="idempotency_conflict">');
  });

  it("a file the static assets lack is the API's 404, not the assets' own error page", async () => {
    // Static assets without Swagger UI's files (a deploy that skipped the [build] step). The app
    // of a configuration is kept in the isolate, so a limit no other test uses builds one with them.
    const lacking = { fetch: async () => new Response('no such asset', { status: 404 }) } as unknown as Fetcher;
    const ctx = createExecutionContext();
    const request = new Request('https://sandbox.example/docs/swagger-ui.css');
    const response = await worker.fetch(
      request as Parameters<typeof worker.fetch>[0],
      { ...env, ASSETS: lacking, SANDBOX_RATE_LIMIT: '9973' },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    const text = await response.text();
    expect(response.status, text).toBe(404);
    expect(response.headers.get('Content-Type')).toBe('application/json');
    expect(JSON.parse(text)).toMatchObject({ error: { code: 'resource_missing' } });
  });
});
