// The Worker as `wrangler deploy --dry-run` bundles it, in workerd, reached as a client reaches it:
// over a real socket on 127.0.0.1, through Miniflare's HTTP server (not dispatchFetch or SELF, which
// skip the runtime's HTTP layer). Issue #35: a lost answer must fail the client's read, an error
// answer to a POST must be the contract's JSON every time, and each request gives the operator one
// JSON log line without a key, a secret or a body.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DeployedWorker, deployedWorker } from '../deployed-worker.js';
import { published, STALE, withoutServers } from '../openapi-published.js';
import { curlReset, fetchReset, retryWithKey, sendErrorPosts } from './error-posts.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PUBLIC_KEY = 'svc_test_sandbox_public';

let deployed: DeployedWorker | undefined;
let mf: Miniflare;
let origin: string;
/** What workerd wrote to its stdout: the Worker's console.log lines. */
let stdout = '';

beforeAll(async () => {
  deployed = await deployedWorker();
  mf = new Miniflare({
    // Off, so that a hundred requests in a row meet no real limit: every answer is the one asked for.
    ...deployed.options({ SANDBOX_RATE_LIMIT: 'off' }),
    host: '127.0.0.1',
    port: 0,
    handleRuntimeStdio(out: Readable, err: Readable) {
      out.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      err.resume();
    },
  });
  origin = (await mf.ready).origin;
}, 120_000);

afterAll(async () => {
  await mf?.dispose();
  await deployed?.remove();
});

describe('reset_after_write over real HTTP', () => {
  it('curl gets the status line and headers, then fails reading the body; the retry with the key replays', async () => {
    const key = `workerd-http-curl-${crypto.randomUUID()}`;
    const curl = await curlReset(origin, key);
    expect(curl.status).toBe('201');
    // 18: the connection closed with bytes of the body still to come; 56: reset while receiving.
    expect([18, 56], curl.stderr).toContain(curl.code);
    const retry = await retryWithKey(origin, key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('Idempotent-Replayed')).toBe('true');
    expect(((await retry.json()) as { object: string }).object).toBe('job');
  });

  it("Node's fetch gets the head, then reading the body rejects", async () => {
    const response = await fetchReset(origin, `workerd-http-fetch-${crypto.randomUUID()}`);
    expect(response.status).toBe(201);
    expect(response.headers.get('Sandbox-Fault')).toBe('reset_after_write');
    await expect(response.text()).rejects.toThrow(TypeError);
  });
});

describe('error answers to POSTs over real HTTP', () => {
  it('a hundred are each the JSON error of the contract, none a runtime 503', async () => {
    await sendErrorPosts(origin, 100);
  });
});

describe('a variable that cannot be used', () => {
  it("answers every request from the isolate's start with the 500 of the error shape naming it", async () => {
    if (deployed === undefined) throw new Error('the Worker was not built');
    const misconfigured = new Miniflare({
      ...deployed.options({ SANDBOX_RATE_LIMIT: 'fast' }),
      host: '127.0.0.1',
      port: 0,
      handleRuntimeStdio(out: Readable, err: Readable) {
        out.resume();
        err.resume();
      },
    });
    try {
      const at = (await misconfigured.ready).origin;
      for (const path of ['/health', '/v1/jobs']) {
        const response = await fetch(`${at}${path}`, { headers: { Authorization: `Bearer ${PUBLIC_KEY}` } });
        const text = await response.text();
        expect(response.status, text).toBe(500);
        expect(response.headers.get('Content-Type')).toBe('application/json');
        const { error } = JSON.parse(text) as { error: Record<string, string> };
        expect(error).toMatchObject({ type: 'api_error', code: 'api_error', request_id: response.headers.get('Request-Id') });
        // docs/workers.md: the message begins so, then says what the variable must be.
        expect(error.message).toMatch(/^The sandbox is misconfigured: SANDBOX_RATE_LIMIT must be /);
      }
    } finally {
      await misconfigured.dispose();
    }
  });
});

describe('the operator log: one JSON line per request', () => {
  it('method, path, status, ms, request id and the fault; never the key, a secret or a body', async () => {
    const json = { Authorization: `Bearer ${PUBLIC_KEY}`, 'Content-Type': 'application/json' };
    const read = await fetch(`${origin}/v1/jobs?limit=1`, { headers: json });
    // A write whose answer holds a secret made for it (whsec_…), and a URL only its body holds.
    const write = await fetch(`${origin}/v1/webhook_endpoints`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ url: 'https://hooks.example.com/body-only-path', events: ['*'] }),
    });
    const fault = await fetch(`${origin}/v1/jobs`, {
      method: 'POST',
      headers: { ...json, 'Sandbox-Simulate': 'api_error' },
      body: JSON.stringify({ type: 'ci_pickup', client: 'cli_seII9pzPSgmmJJ', site: 'site_boDWBFERDT5aI9' }),
    });
    const unknown = await fetch(`${origin}/v1/nope`, { headers: json });
    const answers = [read, write, fault, unknown];
    const bodies = await Promise.all(answers.map((answer) => answer.text()));
    const secret = (JSON.parse(bodies[1] ?? '{}') as { secret: string }).secret;
    expect(secret, bodies[1]).toMatch(/^whsec_/);

    // console.log reaches workerd's stdout on its own time: wait for the lines (no time bound).
    const ids = answers.map((answer) => answer.headers.get('Request-Id'));
    const lines = () =>
      stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => ids.includes(line.request_id as string));
    while (lines().length < answers.length) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lines()).toEqual([
      { method: 'GET', path: '/v1/jobs?limit=1', status: 200, ms: expect.any(Number), request_id: ids[0] },
      { method: 'POST', path: '/v1/webhook_endpoints', status: 201, ms: expect.any(Number), request_id: ids[1] },
      { method: 'POST', path: '/v1/jobs', status: 500, ms: expect.any(Number), request_id: ids[2], fault: 'api_error' },
      { method: 'GET', path: '/v1/nope', status: 404, ms: expect.any(Number), request_id: ids[3] },
    ]);
    for (const line of lines()) expect(line.ms as number).toBeGreaterThanOrEqual(0);

    // Nothing of the headers or bodies: not the key, not the secret made, not a field sent.
    expect(stdout).not.toContain(PUBLIC_KEY);
    expect(stdout).not.toContain(secret);
    expect(stdout).not.toContain('body-only-path');
    expect(stdout).not.toContain('ci_pickup');
  });

  it('reaches Workers Logs: wrangler.toml turns observability on', async () => {
    expect(await readFile(join(ROOT, 'wrangler.toml'), 'utf8')).toMatch(/^\[observability\]\nenabled = true$/m);
  });
});

describe('/openapi.json over real HTTP', () => {
  it('is the committed openapi.json, servers aside: the Node document, from the deployed bundle', async () => {
    const response = await fetch(`${origin}/openapi.json`);
    expect(response.status).toBe(200);
    const served = (await response.json()) as Record<string, unknown>;
    expect(served.servers).toEqual([{ url: origin, description: 'This sandbox' }]);
    expect(withoutServers(served), STALE).toBe(withoutServers(published));
  });

  it("shows every timestamp's rule as the Node document does: RFC 3339 in UTC with whole seconds (SANDBOX.md)", async () => {
    const response = await fetch(`${origin}/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as {
      components: { schemas: Record<string, { properties?: Record<string, { pattern?: string }> }> };
    };
    const pattern = document.components.schemas.Job?.properties?.created_at?.pattern;
    expect(pattern).toBeDefined();
    const rule = new RegExp(pattern as string);
    expect(rule.test('2026-03-02T17:00:00Z')).toBe(true);
    for (const bad of ['2026-03-02T17:00:00.000Z', '2026-03-02T17:00:00+00:00', '2026-02-30T17:00:00Z'])
      expect(rule.test(bad), bad).toBe(false);
  });
});
