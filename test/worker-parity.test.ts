// Node and Workers answer alike (SANDBOX.md, "Sample data": "the same seed gives byte-identical
// responses on Node and Workers"). One sequence of requests goes to the app in-process on Node
// and to the Worker exactly as `wrangler deploy --dry-run` bundles it, running in workerd under
// Miniflare with the Durable Objects of wrangler.toml. Reads must match byte for byte once the
// random request IDs are set aside; writes and errors must match but for the values a write
// makes fresh (new IDs, secrets, real-clock timestamps).
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DeployedWorker, deployedWorker } from './deployed-worker.js';
import { z } from 'zod';
import { createApp } from '../src/app.js';
import { readConfig } from '../src/config.js';
import { ENDPOINTS } from '../src/resources/index.js';
import { ID_PREFIXES } from '../src/schemas/common.js';
import { JOBS_KEY, OTHER_KEY, PUBLIC_KEY, READONLY_KEY, REVOKED_KEY } from './helpers.js';
import golden from './pinned-clock/script.golden.json';
import { runScript } from './pinned-clock/script.js';
import { startReceiver } from './events/receiver.js';
import { verifySignature } from '../src/webhooks/signature.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * High enough that the sequence is never limited on either side (whether it would be depends on
 * timing), yet on, so every /v1 request on Workers goes through the rate-limit Durable Object.
 */
const RATE_LIMIT = '100000';

interface Step {
  method?: string;
  path: string;
  /** An API key; null sends no Authorization header. */
  key?: string | null;
  body?: string;
  headers?: Record<string, string>;
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/**
 * Headers a transport adds on its own (Miniflare reports the compression it negotiated as
 * mf-content-encoding), and the random Request-Id (checked apart).
 */
const TRANSPORT_HEADERS = new Set([
  'content-length',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'mf-content-encoding',
  'request-id',
]);
const REQUEST_ID = /^req_[0-9A-Za-z]{24}$/;

let outdir: string;
let deployed: DeployedWorker | undefined;
let mf: Miniflare;
let workerOptions: ConstructorParameters<typeof Miniflare>[0];
let nodeApp = createApp(readConfig({ SANDBOX_RATE_LIMIT: RATE_LIMIT }), { clientAddress: () => 'unknown' });

function requestOf(step: Step): [string, RequestInit] {
  const headers: Record<string, string> = { ...step.headers };
  const key = step.key === undefined ? PUBLIC_KEY : step.key;
  if (key !== null) headers.Authorization = `Bearer ${key}`;
  if (step.body !== undefined) headers['Content-Type'] ??= 'application/json';
  return [`http://sandbox.test${step.path}`, { method: step.method ?? 'GET', headers, body: step.body }];
}

function answerOf(status: number, headers: Iterable<[string, string]>, text: string): Answer {
  return { status, headers: Object.fromEntries([...headers].map(([name, value]) => [name.toLowerCase(), value])), text };
}

async function onNode(step: Step): Promise<Answer> {
  const [url, init] = requestOf(step);
  const response = await nodeApp.request(url, init);
  return answerOf(response.status, response.headers.entries(), await response.text());
}

async function onWorkers(step: Step): Promise<Answer> {
  const [url, init] = requestOf(step);
  const response = await mf.dispatchFetch(url, init as Parameters<Miniflare['dispatchFetch']>[1]);
  return answerOf(response.status, response.headers.entries(), await response.text());
}

function json(answer: Answer): unknown {
  return JSON.parse(answer.text);
}

/** The headers both runtimes set, by name, without the transport's own. */
function appHeaders(answer: Answer): Record<string, string> {
  return Object.fromEntries(
    Object.entries(answer.headers)
      .filter(([name]) => !TRANSPORT_HEADERS.has(name))
      .sort(),
  );
}

/** Request IDs are random per request: every `req_…` becomes one placeholder. */
function withoutRequestIds(text: string): string {
  return text.replace(/req_[0-9A-Za-z]{24}/g, 'req_<random>');
}

const FRESH_ID = new RegExp(`^(${Object.values(ID_PREFIXES).join('|')})_[0-9A-Za-z]{14}$`);
const SECRET = /^whsec_[0-9A-Za-z]{32}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/**
 * Walks two JSON values side by side. Where they differ, both must be the same kind of fresh
 * value (an ID with the same prefix, a webhook secret, a real-clock timestamp of this run); each
 * such pair becomes one placeholder. Everything else, member order included, must match.
 */
function reconcile(node: unknown, workers: unknown, startedAt: number): [unknown, unknown] {
  if (typeof node === 'string' && typeof workers === 'string' && node !== workers) {
    const fresh =
      (FRESH_ID.test(node) && FRESH_ID.test(workers) && node.split('_')[0] === workers.split('_')[0]) ||
      (SECRET.test(node) && SECRET.test(workers)) ||
      (TIMESTAMP.test(node) && TIMESTAMP.test(workers) && [node, workers].every((value) => Date.parse(value) >= startedAt - 1000));
    return fresh ? ['<fresh>', '<fresh>'] : [node, workers];
  }
  if (Array.isArray(node) && Array.isArray(workers) && node.length === workers.length) {
    const pairs = node.map((item, index) => reconcile(item, workers[index], startedAt));
    return [pairs.map(([a]) => a), pairs.map(([, b]) => b)];
  }
  if (isObject(node) && isObject(workers)) {
    const nodeOut: Record<string, unknown> = {};
    const workersOut: Record<string, unknown> = {};
    for (const key of Object.keys(node)) {
      const [a, b] = reconcile(node[key], workers[key], startedAt);
      nodeOut[key] = a;
      if (key in workers) workersOut[key] = b;
    }
    for (const key of Object.keys(workers)) if (!(key in workersOut)) workersOut[key] = workers[key];
    return [nodeOut, workersOut];
  }
  return [node, workers];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function label(step: Step): string {
  return `${step.method ?? 'GET'} ${step.path} (${step.key === undefined ? 'public key' : (step.key ?? 'no key')})`;
}

/** Runs a step on both sides and checks status, the app's headers and the Request-Id. */
async function both(step: Step): Promise<{ node: Answer; workers: Answer }> {
  const node = await onNode(step);
  const workers = await onWorkers(step);
  expect(workers.status, `${label(step)}: ${workers.text}`).toBe(node.status);
  expect(appHeaders(workers), label(step)).toEqual(appHeaders(node));
  for (const answer of [node, workers]) {
    expect(answer.headers['request-id'], label(step)).toMatch(REQUEST_ID);
    const body = answer.text === '' ? undefined : (json(answer) as { error?: { request_id?: string } });
    if (body?.error !== undefined) expect(body.error.request_id, label(step)).toBe(answer.headers['request-id']);
  }
  return { node, workers };
}

/** A read: the bodies are byte-identical but for the request IDs. */
async function sameRead(step: Step): Promise<Answer> {
  const { node, workers } = await both(step);
  expect(withoutRequestIds(workers.text), label(step)).toBe(withoutRequestIds(node.text));
  return node;
}

/** A write: the bodies match but for what the write made fresh. */
async function sameWrite(step: Step, startedAt: number): Promise<{ node: Answer; workers: Answer }> {
  const { node, workers } = await both(step);
  const [a, b] = reconcile(json(node), json(workers), startedAt);
  expect(withoutRequestIds(JSON.stringify(b)), label(step)).toBe(withoutRequestIds(JSON.stringify(a)));
  return { node, workers };
}

interface Page {
  data: Record<string, unknown>[];
  has_more: boolean;
  next_cursor: string | null;
}

const LISTS = ENDPOINTS.filter((endpoint) => endpoint.method === 'GET' && !endpoint.path.includes('{'));
const GETS = new Set<string>(
  ENDPOINTS.filter((endpoint) => endpoint.method === 'GET' && endpoint.path.endsWith('/{id}')).map((e) => e.path),
);

/** The filters a list accepts, read from its query schema: every parameter but the paging ones. */
function filtersOf(query: unknown): string[] {
  if (!(query instanceof z.ZodObject)) return [];
  return Object.keys(query.shape).filter((name) => name !== 'limit' && name !== 'starting_after');
}

/** A value of a filter that some record of the page carries (scheduled_from filters scheduled_for). */
function filterValue(records: Record<string, unknown>[], filter: string): string | undefined {
  const field = filter === 'scheduled_from' ? 'scheduled_for' : filter;
  for (const record of records) {
    const value = record[field];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

/** Walks a list to its end with the largest page, comparing every page. */
async function walkAll(path: string, key: string): Promise<number> {
  let cursor: string | null = null;
  let records = 0;
  for (let page = 0; page < 1000; page++) {
    const url: string = `${path}?limit=100${cursor === null ? '' : `&starting_after=${cursor}`}`;
    const body = json(await sameRead({ path: url, key })) as Page;
    records += body.data.length;
    if (!body.has_more) return records;
    cursor = body.next_cursor;
  }
  throw new Error(`${path} did not end within 1000 pages`);
}

beforeAll(async () => {
  deployed = await deployedWorker();
  outdir = deployed.outdir;
  workerOptions = deployed.options({ SANDBOX_RATE_LIMIT: RATE_LIMIT });
  mf = new Miniflare(workerOptions);
  await mf.ready;
}, 120_000);

afterAll(async () => {
  await mf?.dispose();
  await deployed?.remove();
});

describe('Node and workerd give the same answers', () => {
  it('to every record of every list of both accounts, walked to the end', async () => {
    for (const key of [PUBLIC_KEY, OTHER_KEY]) {
      for (const list of LISTS) expect(await walkAll(list.path, key), `${list.path} has records`).toBeGreaterThan(0);
    }
  });

  it('to every list: pages, cursors, filters, gets and unknown IDs, in both accounts', async () => {
    for (const account of [PUBLIC_KEY, OTHER_KEY]) {
      for (const list of LISTS) {
        const first = json(await sameRead({ path: `${list.path}?limit=3`, key: account })) as Page;
        if (first.next_cursor !== null) {
          await sameRead({ path: `${list.path}?limit=3&starting_after=${first.next_cursor}`, key: account });
        }
        // Filter values come from a full page, so a filter the first records lack (storage_status)
        // is still compared; a filter with no value to try fails rather than go unchecked.
        const candidates =
          filtersOf(list.query).length === 0 ? [] : (json(await sameRead({ path: `${list.path}?limit=100`, key: account })) as Page).data;
        for (const filter of filtersOf(list.query)) {
          const value = filterValue(candidates, filter);
          expect(value, `a value of ${filter} to filter ${list.path} by`).toBeDefined();
          if (value === undefined) continue;
          const filtered = json(
            await sameRead({ path: `${list.path}?${filter}=${encodeURIComponent(value)}&limit=2`, key: account }),
          ) as Page;
          if (filtered.next_cursor !== null) {
            await sameRead({
              path: `${list.path}?${filter}=${encodeURIComponent(value)}&limit=2&starting_after=${filtered.next_cursor}`,
              key: account,
            });
          }
        }
        const getPath = `${list.path}/{id}`;
        const [record] = first.data;
        if (GETS.has(getPath) && record !== undefined) {
          await sameRead({ path: `${list.path}/${String(record.id)}`, key: account });
          // The other account's IDs answer as unknown ones (SANDBOX.md, "Keys and accounts").
          await sameRead({ path: `${list.path}/${String(record.id)}`, key: account === PUBLIC_KEY ? OTHER_KEY : PUBLIC_KEY });
          await sameRead({ path: `${list.path}/${String(record.id).split('_')[0]}_00000000000000`, key: account });
          await sameRead({ path: `${list.path}/nope_123`, key: account });
        }
      }
    }
  });

  it('to query errors, unknown paths and wrong methods', async () => {
    for (const path of [
      '/v1/jobs?limit=0',
      '/v1/jobs?limit=101',
      '/v1/jobs?limit=ten',
      '/v1/jobs?status=lost',
      '/v1/jobs?starting_after=job_00000000000000',
      '/v1/jobs?colour=blue',
      '/v1/containers?job=nope',
      '/v1/jobs/job_00000000000000/containers',
      '/v1/nope',
      '/v1',
      '/',
      '/health',
    ]) {
      await sameRead({ path });
    }
    const allow = (await sameRead({ method: 'DELETE', path: '/v1/jobs' })).headers.allow;
    expect(allow).toBeDefined();
    await sameRead({ method: 'PUT', path: '/v1/jobs/job_00000000000000' });
    await sameRead({ method: 'PATCH', path: '/v1/events/evt_00000000000000' });
    await sameRead({ method: 'POST', path: '/v1/invoices' });
  });

  it('to authentication and scope failures', async () => {
    await sameRead({ path: '/v1/jobs', key: null });
    await sameRead({ path: '/v1/jobs', key: '' });
    await sameRead({ path: '/v1/jobs', key: 'svc_test_not_issued' });
    await sameRead({ path: '/v1/jobs', key: 'svc_live_0123456789' });
    await sameRead({ path: '/v1/jobs', key: REVOKED_KEY });
    await sameRead({ path: '/v1/jobs', key: null, headers: { Authorization: 'Basic dXNlcjpwYXNz' } });
    await sameRead({ path: '/v1/clients', key: JOBS_KEY });
    await sameRead({ method: 'POST', path: '/v1/jobs', key: READONLY_KEY, body: '{}' });
  });

  it('to CORS preflights and failure simulation', async () => {
    const origin = { Origin: 'https://app.example', 'Access-Control-Request-Method': 'PATCH' };
    await sameRead({ method: 'OPTIONS', path: '/v1/jobs', key: null, headers: origin });
    await sameRead({ method: 'OPTIONS', path: '/v1/jobs/job_00000000000000', key: null, headers: origin });
    await sameRead({ method: 'OPTIONS', path: '/v1/nope', key: null, headers: origin });
    // A browser's own requests carry Origin: CORS headers on successes and errors alike.
    const browser = { Origin: 'https://app.example' };
    await sameRead({ path: '/v1/jobs?limit=2', headers: browser });
    await sameRead({ path: '/v1/jobs', key: null, headers: browser });
    await sameRead({ method: 'DELETE', path: '/v1/jobs', headers: browser });
    await sameRead({ path: '/health', key: null, headers: browser });
    await sameRead({ path: '/v1/jobs', headers: { 'Sandbox-Simulate': 'rate_limited' } });
    await sameRead({ path: '/v1/jobs', headers: { 'Sandbox-Simulate': 'api_error' } });
    await sameRead({ path: '/v1/jobs', headers: { 'Sandbox-Simulate': 'flood' } });
  });

  it('to writes, their validation and state errors, and Idempotency-Key replays', async () => {
    const startedAt = Date.now();
    const sites = (json(await sameRead({ path: '/v1/sites?limit=1' })) as Page).data;
    const site = sites[0] as { id: string; client: string };
    const job = JSON.stringify({
      type: 'ci_pickup',
      client: site.client,
      site: site.id,
      scheduled_for: '2026-06-01',
      window: { start: '08:00', end: '12:00' },
      metadata: { po: '4471' },
    });
    await sameWrite({ method: 'POST', path: '/v1/jobs', body: job }, startedAt);
    await sameWrite(
      { method: 'POST', path: '/v1/jobs', body: JSON.stringify({ type: 'hhw_event', client: site.client, site: site.id }) },
      startedAt,
    );
    await sameWrite(
      { method: 'POST', path: '/v1/webhook_endpoints', body: JSON.stringify({ url: 'https://hooks.example.com/waste', events: ['*'] }) },
      startedAt,
    );
    await sameWrite({ method: 'POST', path: '/v1/clients', body: JSON.stringify({ name: 'Parity Labs', kind: 'laboratory' }) }, startedAt);

    // Validation, malformed bodies and referenced records.
    await sameRead({ method: 'POST', path: '/v1/jobs', body: '{}' });
    await sameRead({ method: 'POST', path: '/v1/jobs', body: '{"type":' });
    await sameRead({ method: 'POST', path: '/v1/jobs', body: '[1,2]' });
    await sameRead({ method: 'POST', path: '/v1/jobs', body: 'type=ci_pickup', headers: { 'Content-Type': 'text/plain' } });
    await sameRead({ method: 'POST', path: '/v1/jobs', body: JSON.stringify({ ...JSON.parse(job), colour: 'blue' }) });
    await sameRead({ method: 'POST', path: '/v1/jobs', body: JSON.stringify({ ...JSON.parse(job), client: 'cli_00000000000000' }) });
    await sameRead({
      method: 'POST',
      path: '/v1/jobs',
      body: JSON.stringify({ ...JSON.parse(job), window: { start: '12:00', end: '08:00' } }),
    });

    // State rules: cancel every job of the first page (some may be cancelled, others 422).
    const jobs = (json(await sameRead({ path: '/v1/jobs?limit=8' })) as Page).data;
    for (const record of jobs) {
      await sameWrite({ method: 'POST', path: `/v1/jobs/${String(record.id)}/cancel`, body: '{}' }, startedAt);
      await sameWrite({ method: 'PATCH', path: `/v1/jobs/${String(record.id)}`, body: '{"metadata":{"note":"x"}}' }, startedAt);
    }

    // Idempotency: a replay returns the first body unchanged, request_id included; each side has
    // its own store, so the same key serves both.
    const key = `parity-${crypto.randomUUID()}`;
    const first = await sameWrite({ method: 'POST', path: '/v1/jobs', body: job, headers: { 'Idempotency-Key': key } }, startedAt);
    const replay = await sameWrite({ method: 'POST', path: '/v1/jobs', body: job, headers: { 'Idempotency-Key': key } }, startedAt);
    expect(replay.node.headers['idempotent-replayed']).toBe('true');
    expect(replay.node.text).toBe(first.node.text);
    expect(replay.workers.text).toBe(first.workers.text);
    await sameRead({ method: 'POST', path: '/v1/jobs', body: '{"type":"lab_pack"}', headers: { 'Idempotency-Key': key } });
    await sameRead({ method: 'POST', path: '/v1/jobs', body: job, headers: { 'Idempotency-Key': 'k'.repeat(256) } });
  });
});

describe('with the clock pinned (Sandbox-Clock)', () => {
  it('the script of test/pinned-clock answers the stored bytes on the deployed bundle, Request-Id included', async () => {
    const answers = await runScript((request) => mf.dispatchFetch(request.url, requestInit(request)) as unknown as Promise<Response>);
    // This Miniflare runs with a rate limit of its own (RATE_LIMIT above), which the policy states.
    const expected = golden.map((answer) => ({ ...answer, headers: { ...answer.headers, 'ratelimit-policy': `${RATE_LIMIT};w=1` } }));
    expect(answers).toEqual(expected);
  });
});

describe('events from writes (SANDBOX_WEBHOOK_URL)', () => {
  it('the deployed bundle delivers job.created to a loopback receiver after the answer, signed', async () => {
    const receiver = await startReceiver();
    const secret = 'whsec_workerdDeliveryTestSecret';
    try {
      await mf.setOptions({
        ...workerOptions,
        bindings: { ...workerOptions.bindings, SANDBOX_WEBHOOK_URL: receiver.url, SANDBOX_WEBHOOK_SECRET: secret },
      });
      const response = await mf.dispatchFetch('http://sandbox.test/v1/jobs', {
        method: 'POST',
        headers: { Authorization: `Bearer ${PUBLIC_KEY}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ type: 'ci_pickup', client: 'cli_seII9pzPSgmmJJ', site: 'site_boDWBFERDT5aI9' }),
      });
      expect(response.status).toBe(201);
      const answer = await response.text();
      const [delivery] = await receiver.waitFor(1);
      expect(verifySignature(delivery?.body ?? '', delivery?.signature, secret)).toBe(true);
      expect(JSON.parse(delivery?.body ?? '{}')).toMatchObject({ type: 'job.created', data: { object: JSON.parse(answer) } });
      // Without the secret a Worker cannot sign (nor print one it made): every request says why.
      await mf.setOptions({ ...workerOptions, bindings: { ...workerOptions.bindings, SANDBOX_WEBHOOK_URL: receiver.url } });
      const misconfigured = await mf.dispatchFetch('http://sandbox.test/v1/jobs', { headers: { Authorization: `Bearer ${PUBLIC_KEY}` } });
      expect(misconfigured.status).toBe(500);
      expect(await misconfigured.text()).toContain('SANDBOX_WEBHOOK_SECRET');
    } finally {
      await mf.setOptions(workerOptions);
      await receiver.close();
    }
  });
});

/** A fetch Request as Miniflare's dispatchFetch takes it (its own Request class). */
function requestInit(request: Request): Parameters<Miniflare['dispatchFetch']>[1] {
  return {
    method: request.method,
    headers: [...request.headers],
    ...(request.body === null ? {} : { body: request.body, duplex: 'half' }),
  } as Parameters<Miniflare['dispatchFetch']>[1];
}

describe('the deployed bundle', () => {
  it('carries the sample data as a Data module of bytes, not as strings of its script', async () => {
    // A new isolate compiles every string of the script: 2.8 MB of records as bytes cost it nothing.
    const served = json(await sameRead({ path: '/v1/events?limit=1', key: PUBLIC_KEY })) as Page;
    const id = (served.data[0] as { id: string }).id;
    const files = await readdir(outdir);
    const scripts = files.filter((name) => name.endsWith('.js'));
    const data = files.filter((name) => name.endsWith('.bin'));
    expect(data, 'one Data module').toHaveLength(1);
    expect((await readFile(join(outdir, data[0] as string))).includes(id), `${id} in the Data module`).toBe(true);
    for (const script of scripts) {
      expect((await readFile(join(outdir, script), 'utf8')).includes(id), `${id} in ${script}`).toBe(false);
    }
  });

  it('is minified, keeps its functions’ names, and names a source map into src/ for each module', async () => {
    // A new isolate compiles what it imports from its source text: the fewer bytes, the less CPU.
    const scripts = (await readdir(outdir)).filter((name) => name.endsWith('.js'));
    const sources = new Set<string>();
    let bytes = 0;
    let lineCount = 0;
    for (const script of scripts) {
      const text = await readFile(join(outdir, script), 'utf8');
      const lines = text.trimEnd().split('\n');
      bytes += text.length;
      lineCount += lines.length;
      // wrangler uploads the map the last line names (upload_source_maps), read from the [build] output.
      expect(lines.at(-1)).toBe(`//# sourceMappingURL=${script}.map`);
      const map = JSON.parse(await readFile(join(ROOT, 'dist', 'worker-bundle', `${script}.map`), 'utf8')) as { sources: string[] };
      for (const source of map.sources) sources.add(source.replace(/^(\.\.\/)+/, ''));
    }
    // esbuild's readable output runs at about 50 bytes a line; minified, a module is a few long lines.
    expect(bytes / lineCount, 'bytes per line').toBeGreaterThan(1000);
    expect([...sources]).toEqual(expect.arrayContaining(['src/worker.ts', 'src/app.ts', 'src/http/endpoint.ts']));
    // A stack in the Worker's logs names the function that threw, as the source does.
    const entry = await readFile(join(outdir, 'sandbox-worker.js'), 'utf8');
    expect(entry).toContain('"createApp"');
    expect(await readFile(join(ROOT, 'wrangler.toml'), 'utf8')).toMatch(/^upload_source_maps = true$/m);
  });
});

describe('with another seed (SANDBOX_SEED)', () => {
  it('Node and workerd still generate the same sample data', async () => {
    const seed = 'parity-second-seed';
    nodeApp = createApp(readConfig({ SANDBOX_SEED: seed, SANDBOX_RATE_LIMIT: RATE_LIMIT }), { clientAddress: () => 'unknown' });
    await mf.setOptions({ ...workerOptions, bindings: { ...workerOptions.bindings, SANDBOX_SEED: seed } });
    for (const key of [PUBLIC_KEY, OTHER_KEY]) {
      for (const list of LISTS) await walkAll(list.path, key);
    }
  });
});
