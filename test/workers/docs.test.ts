// /openapi.json, /docs, /docs/errors and Swagger UI's files on Workers: the files come from
// Workers Static Assets through the ASSETS binding, so the reference page works offline there too.
import { describe, expect, it } from 'vitest';
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
});
