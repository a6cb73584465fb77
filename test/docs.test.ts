// /docs and /docs/errors on Node, in-process: the error reference has a section for every code
// and every error's doc_url leads to one; the reference page is Swagger UI from the sandbox's
// own files under a policy that allows nothing else.
import { describe, expect, it } from 'vitest';
import { nodeDocsAssets } from '../src/docs/node-assets.js';
import { ERROR_CODES } from '../src/errors.js';
import { call, JOBS_KEY, READONLY_KEY, REVOKED_KEY, testApp } from './helpers.js';

const app = testApp({}, { docsAssets: nodeDocsAssets() });

describe('/docs/errors', () => {
  it('has one section per error code, its anchor the code, saying when and what to do', async () => {
    const result = await call(app, '/docs/errors', { key: null });
    expect(result.status).toBe(200);
    expect(result.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
    const sections = [...result.text.matchAll(/<section id="([a-z_]+)">([\s\S]*?)<\/section>/g)];
    expect(sections.map((section) => section[1]).sort()).toEqual(Object.keys(ERROR_CODES).sort());
    for (const [, code, body] of sections) {
      expect(body, code).toContain('<strong>When:</strong>');
      expect(body, code).toContain('<strong>What to do:</strong>');
      expect(body, code).toContain(`Status ${ERROR_CODES[code as keyof typeof ERROR_CODES].status}`);
    }
  });

  it('is where the doc_url of every error code leads', async () => {
    const job = (await call(app, '/v1/jobs?status=closed&limit=1')).json.data[0].id;
    const errors = await Promise.all([
      call(app, '/v1/clients', { method: 'POST', body: {} }),
      call(app, '/v1/jobs?limit=0'),
      call(app, '/v1/jobs', { key: null }),
      call(app, '/v1/jobs', { key: REVOKED_KEY }),
      call(app, '/v1/clients', { key: JOBS_KEY }),
      call(app, '/v1/jobs/job_missing'),
      call(app, '/v1/jobs', { method: 'DELETE' }),
      call(app, `/v1/jobs/${job}/cancel`, { method: 'POST', body: {} }),
      call(app, '/v1/jobs', { headers: { 'Sandbox-Simulate': 'rate_limited' } }),
      call(app, '/v1/jobs', { headers: { 'Sandbox-Simulate': 'api_error' } }),
      call(app, '/v1/clients', { method: 'POST', key: READONLY_KEY, body: {} }),
    ]);
    const first = await call(app, '/v1/webhook_endpoints', {
      method: 'POST',
      headers: { 'Idempotency-Key': 'docs-test' },
      body: { url: 'https://example.com/a', events: ['*'] },
    });
    expect(first.status).toBe(201);
    errors.push(
      await call(app, '/v1/webhook_endpoints', {
        method: 'POST',
        headers: { 'Idempotency-Key': 'docs-test' },
        body: { url: 'https://example.com/b', events: ['*'] },
      }),
    );
    const page = (await call(app, '/docs/errors', { key: null })).text;
    const codes = new Set<string>();
    for (const error of errors) {
      const { code, doc_url: docUrl } = error.json.error;
      codes.add(code);
      expect(docUrl).toBe(`/docs/errors#${code}`);
      const [path, anchor] = docUrl.split('#');
      expect(path).toBe('/docs/errors');
      expect(page).toContain(`<section id="${anchor}">`);
    }
    expect([...codes].sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });
});

describe('/docs', () => {
  it('is Swagger UI from the sandbox itself, with no inline script', async () => {
    const result = await call(app, '/docs', { key: null });
    expect(result.status).toBe(200);
    expect(result.headers.get('Content-Security-Policy')).toMatch(/^default-src 'self';/);
    const scripts = [...result.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.map((script) => script[1])).toEqual([' src="/docs/swagger-ui-bundle.js"', ' src="/docs/init.js"']);
    expect(scripts.every((script) => script[2] === '')).toBe(true);
    expect(result.text).not.toMatch(/https?:\/\//);
    const init = await call(app, '/docs/init.js', { key: null });
    expect(init.headers.get('Content-Type')).toBe('text/javascript; charset=utf-8');
    expect(init.text).toContain("url: '/openapi.json'");
    expect(init.text).toContain('validatorUrl: null');
    expect(init.text).toContain('persistAuthorization: false');
  });

  it("serves Swagger UI's files with their types, and a 404 in the error shape for others", async () => {
    for (const [name, type] of [
      ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
      ['swagger-ui.css', 'text/css; charset=utf-8'],
      ['favicon-32x32.png', 'image/png'],
    ]) {
      const result = await call(app, `/docs/${name}`, { key: null });
      expect(result.status, name).toBe(200);
      expect(result.headers.get('Content-Type')).toBe(type);
      expect(result.text.length).toBeGreaterThan(100);
    }
    const missing = await call(app, '/docs/index.html', { key: null });
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe('resource_missing');
    const withoutAssets = await call(testApp(), '/docs/swagger-ui.css', { key: null });
    expect(withoutAssets.status).toBe(404);
  });

  it('leave Hono on its RegExpRouter: a parameter route beside /docs/… would move every route to TrieRouter', async () => {
    const sandbox = testApp();
    expect((await call(sandbox, '/health', { key: null })).status).toBe(200);
    expect(sandbox.router.name).toBe('SmartRouter + RegExpRouter');
  });
});

describe("Hono's router", () => {
  it('is built as the app is made, so that the first request does not build it (src/app.ts)', () => {
    // SmartRouter names the router it chose once it has built it.
    expect(testApp().router.name).toBe('SmartRouter + RegExpRouter');
  });
});
