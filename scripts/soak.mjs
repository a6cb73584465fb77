// npm run soak: builds, then serves the built app on loopback in a child process (the server the
// CLI starts, with --expose-gc so it can report heap after gc) and drives mixed traffic at it:
// reads, filtered lists walked by cursor, writes with and without Idempotency-Key, replays,
// conflicts, errors and rate-limited bursts. Prints, per 10-second window, requests, 5xx, 429s,
// p50/p99 and RSS; RSS and heap at start and end. Exits non-zero on any 5xx or a heap trend
// upward (heap after gc at the end, once the stores' entries expired, more than 10% above start).
//
//   npm run soak                      2 minutes of mixed traffic
//   npm run soak -- --duration 30s    shorter
//   npm run soak -- --floods          90 s of the floods of the abuse suite on top (distinct
//                                     Idempotency-Keys, distinct presented keys, odd requests,
//                                     distinct list queries); fails if RSS grows over 64 MiB
//   npm run soak -- --no-build        reuse dist/
//   SOAK_NODE_FLAGS="--max-semi-space-size=4" npm run soak -- --floods
//                                     V8 flags for the served process (default: none, as
//                                     `npm start`), to compare memory
//   SOAK_TRACE=/tmp/trace.jsonl npm run soak -- --floods
//                                     the soak host writes, every second, RSS, V8's spaces and
//                                     buffers without a forced gc: where memory goes
//   npm run soak -- --floods --target server
//   npm run soak -- --floods --target bin
//                                     serve with the entry point a user starts, as started:
//                                     `node dist/server.js` or the bin (`node dist/cli.js`, what
//                                     npx runs), V8 flags only from SOAK_NODE_FLAGS. RSS is that of
//                                     the process and any children (there should be none); it cannot report heap after gc
//                                     nor shorten the idempotency TTL, so only the RSS and 5xx
//                                     checks apply, right after the traffic
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { forkTracked, HOST, killAll, nextMessage, sleep, spawnTracked, stop } from './bench/processes.mjs';
import { formatMiB, table } from './bench/stats.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values: flags } = parseArgs({
  options: {
    duration: { type: 'string' },
    floods: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    concurrency: { type: 'string', default: '16' },
    target: { type: 'string', default: 'host' },
  },
});
const ENTRY_POINTS = { server: 'dist/server.js', bin: 'dist/cli.js' };
if (flags.target !== 'host' && !(flags.target in ENTRY_POINTS))
  throw new Error(`--target must be host, server or bin, not ${flags.target}`);

function seconds(text, fallback) {
  if (text === undefined) return fallback;
  const match = /^(\d+(?:\.\d+)?)(s|m)?$/.exec(text);
  if (!match) throw new Error(`--duration must be like 30s or 2m, not ${text}`);
  return Number(match[1]) * (match[2] === 'm' ? 60 : 1);
}

const DURATION_S = seconds(flags.duration, flags.floods ? 90 : 120);
const CONCURRENCY = Number(flags.concurrency);
const WINDOW_S = 10;
const RATE_LIMIT = 200;
/** Short enough that the end check sees every idempotency entry expire. */
const IDEMPOTENCY_TTL_MS = 15_000;
/** The list page cache's own age limit (src/resources/endpoints.ts). */
const PAGE_MAX_AGE_MS = 30_000;
const IDLE_MS = Math.max(IDEMPOTENCY_TTL_MS, PAGE_MAX_AGE_MS) + 2000;
const HEAP_TOLERANCE = 0.1;
const RSS_CEILING = 64 * 1024 * 1024;

// Keys: traffic is spread over many so that normal requests stay under the rate limit (per key
// and address); one key is kept for bursts that must meet it.
const KEYS = Array.from({ length: 48 }, (_, index) => `svc_test_soak_${String(index).padStart(2, '0')}`);
const OTHER = 'svc_test_soak_other';
const BURST = 'svc_test_soak_burst';
const KEY_TABLE = [...KEYS, BURST].map((key) => ({ key, account: 'A', scopes: '*' })).concat([{ key: OTHER, account: 'B', scopes: '*' }]);

/** The built server runs with V8's defaults (and the heap growth src/cli/heap.ts sets as it starts). */
const NPM_START_FLAGS = '';

async function buildAll() {
  if (!flags['no-build']) {
    const built = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('npm run build failed');
  }
  // The app and the Node server as modules, so the host can give them its own store instances.
  await build({
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    // The default seed's prebuilt data, as the built server has it (scripts/build.mjs).
    conditions: ['sandbox-prebuilt'],
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    stdin: {
      contents: [
        "export { createApp } from './src/app.ts';",
        "export { readConfig } from './src/config.ts';",
        "export { MemoryIdempotencyStore } from './src/idempotency/memory-store.ts';",
        "export { TokenBucketLimiter } from './src/rate-limit/token-bucket.ts';",
        "export { socketAddress, startNodeServer } from './src/node-server.ts';",
        "export { boundHeapGrowth, capYoungGeneration } from './src/cli/heap.ts';",
      ].join('\n'),
      resolveDir: root,
      sourcefile: 'soak-app-entry.ts',
      loader: 'ts',
    },
    outfile: `${root}dist/soak-app.js`,
  });
}

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY * 2 });
let port = 0;

function send({ method = 'GET', path, key = KEYS[0], headers = {}, body }) {
  return new Promise((resolve) => {
    const allHeaders = { ...headers };
    if (key !== null) allHeaders.Authorization = `Bearer ${key}`;
    if (body !== undefined) allHeaders['Content-Type'] ??= 'application/json';
    const started = performance.now();
    const req = request({ host: HOST, port, method, path, headers: allHeaders, agent, timeout: 10_000 }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString(), ms: performance.now() - started }),
      );
      res.on('error', () => resolve({ status: 0, headers: {}, body: '', ms: performance.now() - started }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0, headers: {}, body: '', ms: performance.now() - started }));
    req.end(body);
  });
}

// ---- traffic -------------------------------------------------------------------------------

const random = (() => {
  // A fixed seed, so two soaks send the same mix (mulberry32).
  let state = 0x50a4;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
})();
const pick = (list) => list[Math.floor(random() * list.length)];
const anyKey = () => pick(KEYS);

const samples = { ids: {}, site: null, other: [] };
const remembered = [];
let keyCounter = 0;

async function loadSamples() {
  for (const collection of [
    'clients',
    'sites',
    'waste_profiles',
    'jobs',
    'containers',
    'manifests',
    'invoices',
    'webhook_endpoints',
    'events',
  ]) {
    const page = JSON.parse((await send({ path: `/v1/${collection}?limit=100` })).body);
    samples.ids[collection] = page.data.map((record) => record.id);
  }
  const sites = JSON.parse((await send({ path: '/v1/sites?limit=1' })).body);
  samples.site = sites.data[0];
  samples.other = JSON.parse((await send({ path: '/v1/jobs?limit=20', key: OTHER })).body).data.map((job) => job.id);
}

const LISTS = [
  '/v1/jobs?status=scheduled',
  '/v1/jobs?type=lab_pack&limit=10',
  '/v1/containers?status=received&limit=50',
  '/v1/containers?storage_status=at_limit',
  '/v1/events?type=job.created&limit=20',
  '/v1/waste_profiles?status=approved',
  '/v1/invoices?status=paid',
  '/v1/manifests?limit=5',
  '/v1/clients',
  '/v1/sites?limit=100',
];

function jobBody() {
  const site = samples.site;
  return JSON.stringify({
    type: pick(['ci_pickup', 'lab_pack', 'hhw_event']),
    client: site.client,
    site: site.id,
    metadata: { n: String(keyCounter) },
  });
}

/** Each scenario sends one or more requests and returns their answers. */
const SCENARIOS = [
  [
    30,
    async () => {
      const collection = pick(Object.keys(samples.ids));
      return [await send({ path: `/v1/${collection}/${pick(samples.ids[collection])}`, key: anyKey() })];
    },
  ],
  [
    15,
    async () => {
      // A filtered list walked by cursor, one to three pages.
      const answers = [];
      let path = pick(LISTS);
      const key = anyKey();
      for (let page = 0; page < 1 + Math.floor(random() * 3); page++) {
        const answer = await send({ path, key });
        answers.push(answer);
        if (answer.status !== 200) break;
        const { has_more: more, next_cursor: cursor } = JSON.parse(answer.body);
        if (!more) break;
        path = `${path.split('&starting_after')[0]}${path.includes('?') ? '&' : '?'}starting_after=${cursor}`;
      }
      return answers;
    },
  ],
  [8, async () => [await send({ method: 'POST', path: '/v1/jobs', key: anyKey(), body: jobBody() })]],
  [
    10,
    async () => {
      const idempotencyKey = `soak-${keyCounter++}`;
      const body = jobBody();
      const key = anyKey();
      const answer = await send({ method: 'POST', path: '/v1/jobs', key, body, headers: { 'Idempotency-Key': idempotencyKey } });
      if (remembered.length < 2000) remembered.push({ key, idempotencyKey, body });
      else remembered[Math.floor(random() * remembered.length)] = { key, idempotencyKey, body };
      return [answer];
    },
  ],
  [
    8,
    async () => {
      if (remembered.length === 0) return [];
      const { key, idempotencyKey, body } = pick(remembered);
      return [await send({ method: 'POST', path: '/v1/jobs', key, body, headers: { 'Idempotency-Key': idempotencyKey } })];
    },
  ],
  [
    3,
    async () => {
      if (remembered.length === 0) return [];
      const { key, idempotencyKey } = pick(remembered);
      return [await send({ method: 'POST', path: '/v1/jobs', key, body: jobBody(), headers: { 'Idempotency-Key': idempotencyKey } })];
    },
  ],
  [5, async () => [await send({ path: `/v1/jobs/${pick(samples.other)}`, key: anyKey() })]],
  [5, async () => [await send({ path: `/v1/jobs/${pick(samples.other)}`, key: OTHER })]],
  [4, async () => [await send({ path: `/v1/jobs?limit=${pick(['0', '101', 'x', '1&limit=2'])}`, key: anyKey() })]],
  [4, async () => [await send({ path: '/v1/jobs', key: pick(['svc_test_nope', 'svc_live_x', '']) })]],
  [2, async () => [await send({ method: 'PUT', path: '/v1/jobs', key: anyKey() })]],
  [2, async () => [await send({ method: 'POST', path: '/v1/clients', key: anyKey(), body: '{"name":' })]],
  [1, async () => [await send({ path: '/v1/jobs', key: anyKey(), headers: { 'Sandbox-Simulate': 'rate_limited' } })]],
];

/** The floods of the abuse suite, for --floods: every one aimed at a store or a cache. */
const FLOODS = [
  // Distinct Idempotency-Keys with bodies near the largest a create takes (~12 KB).
  [
    10,
    async () => {
      const metadata = Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`k${index}`, 'v'.repeat(480)]));
      const site = samples.site;
      const body = JSON.stringify({
        client: site.client,
        name: `Yard ${keyCounter}`,
        address: { line1: '1 Main', city: 'Austin', state: 'TX', postal_code: '78701' },
        access_notes: 'n'.repeat(1900),
        metadata,
      });
      return [
        await send({
          method: 'POST',
          path: '/v1/sites',
          key: anyKey(),
          body,
          headers: { 'Idempotency-Key': `flood-${keyCounter++}-${'x'.repeat(200)}` },
        }),
      ];
    },
  ],
  // Distinct presented keys, up to 300 characters: a bucket each.
  [10, async () => [await send({ path: '/v1/jobs', key: `svc_test_${keyCounter++}_${'k'.repeat(Math.floor(random() * 280))}` })]],
  // Distinct list queries: a page-cache entry each.
  [
    6,
    async () => {
      const collection = pick(['jobs', 'containers', 'events', 'waste_profiles']);
      const cursor = pick(samples.ids[collection]);
      return [await send({ path: `/v1/${collection}?limit=${1 + Math.floor(random() * 100)}&starting_after=${cursor}`, key: anyKey() })];
    },
  ],
  // Odd requests and large bodies that are refused.
  [
    4,
    async () => [
      await send({ path: pick(['/v1/%2e%2e/x', '/v1/jobs/job_%00', '/v1/jobs?%E0%A4%A=1', '/v1//jobs', '/v1/jobs?a[]=1']), key: anyKey() }),
    ],
  ],
  [2, async () => [await send({ method: 'POST', path: '/v1/clients', key: anyKey(), body: `{"name":"${'x'.repeat(600_000)}"` })]],
];

/**
 * Each kind of request once before the start is measured. The sandbox builds some things on
 * their first use and keeps them, bounded (an endpoint's schemas, a list's parsed records): they
 * belong to the start, not to a trend. Measured before any request, the heap of a start grew
 * +10.2% by the end with no store holding anything, only that state built.
 */
async function warmUp() {
  for (const [, scenario] of [...SCENARIOS, ...(flags.floods ? FLOODS : [])]) await scenario();
}

function chooser(weighted) {
  const total = weighted.reduce((sum, [weight]) => sum + weight, 0);
  return () => {
    let roll = random() * total;
    for (const [weight, scenario] of weighted) {
      roll -= weight;
      if (roll < 0) return scenario;
    }
    return weighted[0][1];
  };
}

// ---- measuring -----------------------------------------------------------------------------

class Window {
  requests = 0;
  errors5xx = 0;
  limited = 0;
  replayed = 0;
  failed = 0;
  latencies = [];

  record(answer) {
    this.requests++;
    this.latencies.push(answer.ms);
    if (answer.status >= 500) this.errors5xx++;
    if (answer.status === 429) this.limited++;
    if (answer.status === 0) this.failed++;
    if (answer.headers['idempotent-replayed'] === 'true') this.replayed++;
  }

  percentile(p) {
    if (this.latencies.length === 0) return Number.NaN;
    const sorted = Float64Array.from(this.latencies).sort();
    return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
  }
}

const fmt = (ms) => (Number.isFinite(ms) ? ms.toFixed(ms >= 10 ? 1 : 2) : 'n/a');
const firstFiveXx = [];

/** The soak host (scripts/soak/host.mjs): the app with the CLI's server, reporting over IPC. */
async function startHost() {
  const host = forkTracked(
    `${root}scripts/soak/host.mjs`,
    [JSON.stringify({ rateLimit: RATE_LIMIT, keys: KEY_TABLE, idempotencyTtlMs: IDEMPOTENCY_TTL_MS })],
    { execArgv: ['--expose-gc', ...(process.env.SOAK_NODE_FLAGS ?? NPM_START_FLAGS).split(' ').filter(Boolean)], cwd: root },
  );
  const ready = await nextMessage(host, 'ready', 60_000, 'soak host');
  return {
    port: ready.port,
    process: host,
    memory: async () => {
      host.send({ type: 'memory' });
      return nextMessage(host, 'memory', 30_000, 'soak host');
    },
  };
}

/** VmRSS of a process and each of its descendants, in bytes (Linux /proc). */
function treeRss(pid, into = []) {
  try {
    into.push(Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024);
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const child of children === '' ? [] : children.split(' ')) treeRss(Number(child), into);
    }
  } catch {
    // Gone meanwhile.
  }
  return into;
}

/** An entry point as a user starts it (`node dist/server.js`, the bin), configured by environment. */
async function startEntryPoint(script) {
  const nodeFlags = (process.env.SOAK_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const child = spawnTracked(process.execPath, [...nodeFlags, script, '--port', '0'], {
    cwd: root,
    env: { ...process.env, SANDBOX_RATE_LIMIT: String(RATE_LIMIT), SANDBOX_KEYS: JSON.stringify(KEY_TABLE) },
  });
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script}: no start within 30 s:\n${child.output}`)), 30_000);
    const read = () => {
      const found = /on http:\/\/127\.0\.0\.1:(\d+)/.exec(child.output)?.[1];
      if (found !== undefined) {
        clearTimeout(timer);
        resolve(Number(found));
      }
    };
    child.stdout.on('data', read);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}:\n${child.output}`)));
  });
  return {
    port,
    process: child,
    memory: async () => {
      const each = treeRss(child.pid);
      return { rss: each.reduce((sum, rss) => sum + rss, 0), each };
    },
  };
}

async function main() {
  await buildAll();
  const external = flags.target !== 'host';
  const served = external ? await startEntryPoint(ENTRY_POINTS[flags.target]) : await startHost();
  const host = served.process;
  port = served.port;
  const memory = served.memory;

  await loadSamples();
  await warmUp();
  const start = await memory();
  console.log(
    `Soak: ${DURATION_S} s${flags.floods ? ' with floods' : ''}, ${CONCURRENCY} in flight, rate limit ${RATE_LIMIT}/s per key and address, ` +
      `idempotency TTL shortened to ${IDEMPOTENCY_TTL_MS / 1000} s for the end check`,
  );
  console.log(
    external
      ? `served by: node ${process.env.SOAK_NODE_FLAGS ?? ''} ${ENTRY_POINTS[flags.target]} (RSS of it and its children)`
      : `served by: the soak host, V8 flags ${process.env.SOAK_NODE_FLAGS || NPM_START_FLAGS || 'none (defaults)'}`,
  );
  console.log(`start: RSS ${formatMiB(start.rss)}${external ? '' : `, heap after gc ${formatMiB(start.heap)}`}\n`);

  const normal = chooser(SCENARIOS);
  const flood = chooser(FLOODS);
  const windows = [];
  let current = new Window();
  const rows = [];
  let rssMax = start.rss;
  const began = performance.now();
  const deadline = began + DURATION_S * 1000;

  const worker = async (index) => {
    while (performance.now() < deadline) {
      // With --floods, half the workers flood while the other half send the normal mix.
      const scenario = flags.floods && index % 2 === 1 ? flood() : normal();
      for (const answer of await scenario()) {
        current.record(answer);
        if (answer.status >= 500 && firstFiveXx.length < 5) firstFiveXx.push(answer.body.slice(0, 300));
      }
    }
  };
  const burster = async () => {
    // Every 2 s a burst of 2× the rate limit on one key: the limiter must answer 429s at once.
    while (performance.now() < deadline - 2000) {
      await sleep(2000);
      const answers = await Promise.all(Array.from({ length: RATE_LIMIT * 2 }, () => send({ path: '/v1/clients?limit=1', key: BURST })));
      for (const answer of answers) current.record(answer);
    }
  };
  const reporter = async () => {
    while (performance.now() < deadline) {
      await sleep(Math.min(WINDOW_S * 1000, Math.max(0, deadline - performance.now())));
      const finished = current;
      current = new Window();
      windows.push(finished);
      const now = await memory();
      rssMax = Math.max(rssMax, now.rss);
      const row = [
        `${Math.round((performance.now() - began) / 1000)} s`,
        finished.requests.toLocaleString('en-US'),
        String(finished.errors5xx),
        String(finished.limited),
        String(finished.replayed),
        String(finished.failed),
        fmt(finished.percentile(50)),
        fmt(finished.percentile(99)),
        formatMiB(now.rss),
        external ? '-' : formatMiB(now.heap),
        external ? '-' : `${now.idempotency.entries} / ${formatMiB(now.idempotency.bytes)}`,
        external ? '-' : String(now.buckets),
      ];
      rows.push(row);
      console.log(row.join('  '));
    }
  };
  await Promise.all([...Array.from({ length: CONCURRENCY }, (_, index) => worker(index)), burster(), reporter()]);
  if (current.requests > 0) windows.push(current);

  console.log(
    `\n${table(['window', 'requests', '5xx', '429', 'replayed', 'failed', 'p50 ms', 'p99 ms', 'RSS', 'heap (gc)', 'idempotency', 'buckets'], rows)}\n`,
  );
  const afterTraffic = await memory();

  // Idle until every idempotency entry, rate-limit bucket and cached page has expired, then one
  // request of each kind lets the stores drop them (expiry is lazy: checked on the next use).
  // An entry point keeps idempotency entries 24 hours: nothing to wait for there.
  if (!external) {
    console.log(`traffic over; idle ${IDLE_MS / 1000} s so that stored entries and cached pages expire…`);
    await sleep(IDLE_MS);
    await send({ method: 'POST', path: '/v1/jobs', body: jobBody(), headers: { 'Idempotency-Key': 'soak-final' } });
    // A list query no traffic sent: a page-cache miss, which drops the expired pages.
    await send({ path: '/v1/jobs?limit=99&status=billed&type=hhw_event' });
  }
  const end = external ? afterTraffic : await memory();

  const total = windows.reduce((sum, window) => sum + window.requests, 0);
  const fiveXx = windows.reduce((sum, window) => sum + window.errors5xx, 0);
  const failed = windows.reduce((sum, window) => sum + window.failed, 0);
  const limited = windows.reduce((sum, window) => sum + window.limited, 0);
  const heapGrowth = (end.heap - start.heap) / start.heap;
  console.log(`requests: ${total.toLocaleString('en-US')}, 5xx: ${fiveXx}, 429: ${limited}, connection failures: ${failed}`);
  console.log(
    `RSS:  start ${formatMiB(start.rss)}, max ${formatMiB(rssMax)} (+${formatMiB(rssMax - start.rss)}), after traffic ${formatMiB(afterTraffic.rss)}, end ${formatMiB(end.rss)}`,
  );
  if (external && start.each.length > 1)
    console.log(
      `      per process (the started one first): start ${start.each.map(formatMiB).join(' + ')}, end ${end.each.map(formatMiB).join(' + ')}`,
    );
  if (!external)
    console.log(
      `heap after gc: start ${formatMiB(start.heap)}, after traffic ${formatMiB(afterTraffic.heap)} ` +
        `(idempotency ${afterTraffic.idempotency.entries} entries / ${formatMiB(afterTraffic.idempotency.bytes)}, ${afterTraffic.buckets} buckets), ` +
        `end ${formatMiB(end.heap)} (${heapGrowth >= 0 ? '+' : ''}${(heapGrowth * 100).toFixed(1)}%; idempotency ${end.idempotency.entries}, buckets ${end.buckets})`,
    );

  const failures = [];
  if (fiveXx > 0) failures.push(`${fiveXx} responses were 5xx, e.g. ${firstFiveXx.join(' | ')}`);
  if (failed > 0) failures.push(`${failed} requests got no answer`);
  if (limited === 0) failures.push('no burst met the rate limit (429): the limiter was not exercised');
  if (!external && heapGrowth > HEAP_TOLERANCE)
    failures.push(`heap after gc grew ${(heapGrowth * 100).toFixed(1)}% (limit ${HEAP_TOLERANCE * 100}%)`);
  if (flags.floods && rssMax - start.rss > RSS_CEILING)
    failures.push(`RSS grew ${formatMiB(rssMax - start.rss)} (limit ${formatMiB(RSS_CEILING)})`);
  await stop(host);
  agent.destroy();
  if (failures.length > 0) {
    console.error(`\nSOAK FAILED:\n- ${failures.join('\n- ')}`);
    process.exitCode = 1;
  } else {
    console.log('\nSOAK PASSED');
  }
}

main().catch((error) => {
  console.error(error);
  killAll();
  process.exit(1);
});
