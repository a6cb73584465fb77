// Workers start-up, as a fresh isolate meets it: a new Miniflare instance (workerd) on the
// Worker that `npm run worker:build` wrote (dist/worker/worker.js), timed to the first 200 of
// GET /v1/jobs?limit=1, next to a bare Worker answering a small JSON and to warm requests.
// workerd here runs on the same 2 cores as everything else: relative figures only.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PUBLIC_KEY } from './scenarios.mjs';

const COMPATIBILITY_DATE = '2026-04-20';
const WARM_REQUESTS = 30;

const BARE_WORKER = `export default { fetch() { return new Response('{"object":"list","data":[]}', { headers: { 'Content-Type': 'application/json' } }); } };`;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function timeOne(Miniflare, options, url) {
  const started = performance.now();
  const mf = new Miniflare(options);
  try {
    await mf.ready;
    const ready = performance.now();
    const first = await mf.dispatchFetch(url, { headers: { Authorization: `Bearer ${PUBLIC_KEY}` } });
    const body = await first.text();
    if (first.status !== 200) throw new Error(`first request answered ${first.status}: ${body.slice(0, 200)}`);
    const firstDone = performance.now();
    const warm = [];
    for (let i = 0; i < WARM_REQUESTS; i++) {
      const at = performance.now();
      const response = await mf.dispatchFetch(url, { headers: { Authorization: `Bearer ${PUBLIC_KEY}` } });
      await response.arrayBuffer();
      warm.push(performance.now() - at);
    }
    return { toFirst: firstDone - started, startup: ready - started, firstRequest: firstDone - ready, warm: median(warm) };
  } finally {
    await mf.dispose();
  }
}

/** { sandbox, bare } with medians over `runs` fresh instances each, interleaved; or { na }. */
export async function miniflareStart(root, runs) {
  let Miniflare;
  try {
    ({ Miniflare } = await import('miniflare'));
  } catch (error) {
    return { na: `miniflare cannot be loaded: ${error.message}` };
  }
  const scratch = mkdtempSync(join(tmpdir(), 'bench-miniflare-'));
  const barePath = join(scratch, 'bare.mjs');
  writeFileSync(barePath, BARE_WORKER);
  const sandboxOptions = {
    modules: true,
    scriptPath: join(root, 'dist/worker/worker.js'),
    modulesRoot: join(root, 'dist/worker'),
    compatibilityDate: COMPATIBILITY_DATE,
    durableObjects: { IDEMPOTENCY: 'IdempotencyObject', RATE_LIMITS: 'RateLimitObject' },
    bindings: { SANDBOX_RATE_LIMIT: 'off' },
  };
  const bareOptions = { modules: true, scriptPath: barePath, modulesRoot: scratch, compatibilityDate: COMPATIBILITY_DATE };
  const sandbox = [];
  const bare = [];
  try {
    for (let run = 0; run < runs; run++) {
      sandbox.push(await timeOne(Miniflare, sandboxOptions, 'http://sandbox.local/v1/jobs?limit=1'));
      bare.push(await timeOne(Miniflare, bareOptions, 'http://sandbox.local/v1/jobs?limit=1'));
    }
  } catch (error) {
    return { na: `Miniflare run failed: ${error.message}` };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const summary = (series) => ({
    toFirst: median(series.map((run) => run.toFirst)),
    startup: median(series.map((run) => run.startup)),
    firstRequest: median(series.map((run) => run.firstRequest)),
    warm: median(series.map((run) => run.warm)),
    all: series.map((run) => run.toFirst),
  });
  return { runs, sandbox: summary(sandbox), bare: summary(bare) };
}
