// CORS and the reference page proven in a real browser: headless Chromium driven by
// playwright-core. A page of another origin calls the sandbox with fetch and reads what CORS
// lets it read; /docs loads only the sandbox's own files and sends a request through "try it".
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import sparticuzChromium from '@sparticuz/chromium';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { readConfig } from '../src/config.js';
import { nodeDocsAssets } from '../src/docs/node-assets.js';

/** Flags of @sparticuz/chromium's list (made for AWS Lambda) that this suite cannot take. */
const DROPPED_FLAGS = [
  // Turns CORS off, and CORS is what this suite proves.
  '--disable-web-security',
  // One process for the browser and its pages: closing a page would end the browser.
  '--single-process',
];

/**
 * The browser comes from the npm registry (@sparticuz/chromium, a devDependency at a pinned
 * version, unpacked to /tmp/chromium on first use), so `npm ci && npm test` needs no apt step.
 * Always this one on Linux x64, even where Debian's chromium is installed: a fresh machine and CI
 * run the same browser. The package ships only that binary, so elsewhere (macOS, arm64)
 * CHROMIUM_PATH names the Chromium or Chrome to drive.
 */
async function launchChromium(): Promise<Browser> {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    const executablePath = process.env.CHROMIUM_PATH;
    if (executablePath === undefined)
      throw new Error(
        `@sparticuz/chromium ships a Chromium for Linux x64 only; on ${process.platform}-${process.arch}, set CHROMIUM_PATH to a Chromium or Chrome.`,
      );
    return chromium.launch({ executablePath, headless: true, timeout: 30_000 });
  }
  const executablePath = await sparticuzChromium.executablePath();
  const args = sparticuzChromium.args.filter((flag) => !DROPPED_FLAGS.includes(flag));
  const launched = await chromium.launch({ executablePath, args, headless: true, timeout: 30_000 });
  // The unpacked binary is reused as it is: one of an older package would be another browser.
  const packaged = JSON.parse(readFileSync('node_modules/@sparticuz/chromium/package.json', 'utf8')).version as string;
  if (launched.version().split('.')[0] !== packaged.split('.')[0]) {
    await launched.close();
    throw new Error(
      `${executablePath} is Chromium ${launched.version()}, not the ${packaged} of @sparticuz/chromium: remove it, it is unpacked again.`,
    );
  }
  return launched;
}

let browser: Browser;
let sandbox: ReturnType<typeof serve>;
let sandboxOrigin: string;
let other: Server;
let otherOrigin: string;
/** Every request the sandbox received: method, path, Authorization, Sandbox-Clock and the query (when any). */
const received: { method: string; path: string; authorization: string | null; clock?: string; search?: string }[] = [];

/** The script of the other origin's page: the calls an integrator's browser code makes. */
const PAGE_SCRIPT = `
(async () => {
  const sandbox = new URLSearchParams(location.search).get('sandbox');
  const auth = { Authorization: 'Bearer svc_test_sandbox_public' };
  const read = async (response) => ({
    status: response.status,
    body: await response.json(),
    requestId: response.headers.get('Request-Id'),
    rateLimitPolicy: response.headers.get('RateLimit-Policy'),
    replayed: response.headers.get('Idempotent-Replayed'),
    // Sent (Node dates every answer) but not exposed: a browser enforcing CORS hides it.
    date: response.headers.get('Date'),
  });
  const key = 'browser-' + Math.random().toString(36).slice(2);
  const create = () => fetch(sandbox + '/v1/webhook_endpoints', {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json', 'Idempotency-Key': key },
    body: JSON.stringify({ url: 'https://example.com/hooks', events: ['job.created'] }),
  });
  try {
    const list = await read(await fetch(sandbox + '/v1/jobs?limit=2', { headers: auth }));
    const created = await read(await create());
    const replay = await read(await create());
    const missing = await read(await fetch(sandbox + '/v1/jobs/job_doesnotexist', { headers: auth }));
    window.results = { list, created, replay, missing };
  } catch (error) {
    window.results = { failure: String(error) };
  }
})();
`;

beforeAll(async () => {
  const app = createApp(readConfig({}), { docsAssets: nodeDocsAssets(), clientAddress: () => '127.0.0.1' });
  sandbox = serve({
    fetch: (request, env) => {
      const clock = request.headers.get('Sandbox-Clock');
      const { pathname, search } = new URL(request.url);
      received.push({
        method: request.method,
        path: pathname,
        authorization: request.headers.get('Authorization'),
        ...(clock === null ? {} : { clock }),
        ...(search === '' ? {} : { search }),
      });
      return app.fetch(request, env);
    },
    port: 0,
    hostname: '127.0.0.1',
  });
  await new Promise<void>((resolve) => sandbox.once('listening', () => resolve()));
  sandboxOrigin = `http://127.0.0.1:${(sandbox.address() as AddressInfo).port}`;

  other = createServer((request, response) => {
    if (request.url?.startsWith('/page.js')) {
      response.writeHead(200, { 'Content-Type': 'text/javascript' }).end(PAGE_SCRIPT);
    } else {
      response
        .writeHead(200, { 'Content-Type': 'text/html' })
        .end('<!doctype html><title>integrator</title><script src="/page.js"></script>');
    }
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;

  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (sandbox ? sandbox.close(() => resolve()) : resolve()));
  await new Promise<void>((resolve) => (other ? other.close(() => resolve()) : resolve()));
});

/** Presses "Execute" in an operation of /docs; once its live answer shows `status`, reads its body. */
async function execute(operation: Locator, status: string): Promise<() => Promise<string | null>> {
  await operation.locator('button.execute').click();
  const shown = operation.locator('.live-responses-table tbody .response-col_status').first();
  await expect.poll(() => shown.textContent(), { timeout: 20_000 }).toContain(status);
  return () => operation.locator('.live-responses-table tbody .microlight').first().textContent();
}

/**
 * Opens /docs in a new page with one operation (its Swagger UI id, `Jobs-createJob`) expanded, runs `use` on it, and
 * closes the page; `watch` sees the page before it loads (to listen to its requests).
 */
async function withOperation(
  id: string,
  use: (operation: Locator, page: Page) => Promise<void>,
  watch?: (page: Page) => void,
): Promise<void> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  watch?.(page);
  try {
    await page.goto(`${sandboxOrigin}/docs`);
    const operation = page.locator(`#operations-${id}`);
    await operation.locator('.opblock-summary').first().click({ timeout: 20_000 });
    await use(operation, page);
  } finally {
    await page.close();
  }
}

describe('in Chromium', () => {
  it('a page of another origin calls the sandbox and reads bodies and the exposed headers', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${otherOrigin}/?sandbox=${encodeURIComponent(sandboxOrigin)}`);
      await page.waitForFunction(() => 'results' in window, undefined, { timeout: 20_000 });
      const results = await page.evaluate(() => (window as unknown as { results: Record<string, unknown> }).results);
      expect(results.failure).toBeUndefined();
      const { list, created, replay, missing } = results as Record<
        string,
        {
          status: number;
          body: Record<string, unknown>;
          requestId: string;
          rateLimitPolicy: string;
          replayed: string | null;
          date: string | null;
        }
      >;

      expect(list?.status).toBe(200);
      expect(list?.body.object).toBe('list');
      expect(list?.body.data).toHaveLength(2);
      expect(list?.requestId).toMatch(/^req_/);
      expect(list?.rateLimitPolicy).toBe('25;w=1');
      // The browser enforces CORS (so what the page reads is what CORS lets it read).
      expect(list?.date).toBeNull();

      expect(created?.status).toBe(201);
      expect(created?.body.object).toBe('webhook_endpoint');
      expect(created?.replayed).toBeNull();
      expect(replay?.status).toBe(201);
      expect(replay?.replayed).toBe('true');
      expect(replay?.body).toEqual(created?.body);
      expect(replay?.requestId).toMatch(/^req_/);

      expect(missing?.status).toBe(404);
      expect(missing?.body.error).toMatchObject({ code: 'resource_missing', request_id: missing?.requestId });
      expect(missing?.rateLimitPolicy).toBe('25;w=1');

      // The POST with JSON and an Idempotency-Key is not a simple request: the browser asked first.
      expect(received).toContainEqual({ method: 'OPTIONS', path: '/v1/webhook_endpoints', authorization: null });
    } finally {
      await page.close();
    }
  }, 60_000);

  it('/docs shows Sandbox-Clock on a write, and "try it" with it answers at the pinned time', async () => {
    await withOperation('Jobs-createJob', async (operation) => {
      const clockRow = operation.locator('tr[data-param-name="Sandbox-Clock"]');
      await expect.poll(() => clockRow.textContent(), { timeout: 20_000 }).toContain('pins the clock');
      await operation.locator('.try-out__btn').click();
      await clockRow.locator('input').fill('2026-03-02T17:00:00Z');
      const before = received.length;
      const body = await execute(operation, '201');
      await expect.poll(body).toContain('"created_at": "2026-03-02T17:00:00Z"');
      expect(received.slice(before).find((request) => request.path === '/v1/jobs')?.clock).toBe('2026-03-02T17:00:00Z');
    });
  }, 60_000);

  it('/docs "try it" sends a write unpinned unless the user fills in Sandbox-Clock', async () => {
    await withOperation('Jobs-createJob', async (operation) => {
      await operation.locator('.try-out__btn').click();
      expect(await operation.locator('tr[data-param-name="Sandbox-Clock"] input').inputValue()).toBe('');
      const before = received.length;
      const body = await execute(operation, '201');
      await expect.poll(body).toContain('"object": "job"');
      expect(await body()).not.toContain('"created_at": "2026-03-02T17:00:00Z"');
      const sent = received.slice(before).find((request) => request.path === '/v1/jobs');
      expect(sent?.method).toBe('POST');
      expect(sent?.clock).toBeUndefined();
    });
  }, 60_000);

  it('/docs "try it" offers the values of Sandbox-Simulate, fills none in, and sends the one picked', async () => {
    await withOperation('Jobs-createJob', async (operation, page) => {
      await operation.locator('.try-out__btn').click();
      const input = operation.locator('tr[data-param-name="Sandbox-Simulate"] input');
      await expect.poll(() => input.getAttribute('list'), { timeout: 20_000 }).toBe('sandbox-simulate-values');
      expect(await input.inputValue()).toBe('');
      const offered = await page
        .locator('datalist#sandbox-simulate-values option')
        .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
      expect(offered).toEqual(
        expect.arrayContaining([
          'rate_limited',
          'api_error',
          'api_error_after_write',
          'reset_after_write',
          'duplicate_event',
          'delay=2500',
        ]),
      );
      await input.fill('api_error_after_write');
      const body = await execute(operation, '500');
      await expect.poll(body).toContain('after the write');
    });
  }, 60_000);

  it('/docs shows each error of an operation with its own example', async () => {
    await withOperation('Jobs-createJob', async (operation) => {
      const unauthorized = operation.locator('tr.response[data-code="401"]');
      await expect.poll(() => unauthorized.textContent(), { timeout: 20_000 }).toContain('No API key provided');
      // The examples' list offers both 401s; picking the second shows its own body.
      const choice = unauthorized.locator('.examples-select select');
      expect(await choice.locator('option').allTextContents()).toEqual([
        expect.stringContaining('with no Authorization header'),
        expect.stringContaining('with Authorization: Bearer svc_live_'),
      ]);
      await choice.selectOption({ index: 1 });
      await expect.poll(() => unauthorized.textContent()).toContain('Live keys (svc_live_) do not work in the sandbox');
      const notFound = operation.locator('tr.response[data-code="404"]');
      expect(await notFound.textContent()).toContain('No such client');
      expect(await notFound.textContent()).not.toContain('Missing required param');
    });
  }, 60_000);

  it('/docs loads only from the sandbox and sends a request through "try it"', async () => {
    const requested: string[] = [];
    const consoleErrors: string[] = [];
    await withOperation(
      'Jobs-listJobs',
      async (operation, page) => {
        await operation.locator('.try-out__btn').click();
        const before = received.length;
        const body = await execute(operation, '200');
        await expect.poll(body).toMatch(/"object": "list",\s+"data": \[\s+\{\s+"id": "job_/);

        const sent = received.slice(before).find((request) => request.path === '/v1/jobs');
        expect(sent?.authorization).toBe('Bearer svc_test_sandbox_public');
        // Only what the user filled in, and they filled in nothing: no filter, no limit, no pinned clock.
        expect(sent?.search).toBeUndefined();
        expect(sent?.clock).toBeUndefined();
        // The filters' example values are in their descriptions, not in the inputs.
        const statusRow = operation.locator('tr[data-param-name="status"]');
        expect(await statusRow.textContent()).toMatch(/E\.g\. `?\w+/);
        expect(await statusRow.locator('select').inputValue()).toBe('');

        mkdirSync('test-results', { recursive: true });
        await page.screenshot({ path: 'test-results/docs-try-it.png', fullPage: false });

        const elsewhere = requested.filter((url) => !url.startsWith(`${sandboxOrigin}/`) && !url.startsWith('data:'));
        expect(elsewhere).toEqual([]);
        expect(requested).toContain(`${sandboxOrigin}/docs/swagger-ui-bundle.js`);
        expect(requested).toContain(`${sandboxOrigin}/openapi.json`);
        expect(consoleErrors.filter((text) => /Content Security Policy/i.test(text))).toEqual([]);
      },
      (page) => {
        page.on('request', (request) => requested.push(request.url()));
        page.on('console', (message) => {
          if (message.type() === 'error') consoleErrors.push(message.text());
        });
      },
    );
  }, 60_000);
});
