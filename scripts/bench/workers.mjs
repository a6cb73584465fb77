// Workers, side by side with a bare Worker that sends the same bytes: new Miniflare instances
// (workerd) on the Worker that `npm run worker:build` wrote (dist/worker/sandbox-worker.js and
// the modules it imports), measuring workerd's own CPU (from /proc: utime + stime of the workerd
// process each instance starts, in clock ticks of 10 ms, hence the runs and the requests per
// figure):
//   - a new isolate: CPU from spawn to ready, then for the first request;
//   - list, get and create: requests per second and CPU per request, one at a time;
//   - Durable Object calls per request of each kind, and the SQLite rows they read and write,
//     counted by a wrapper module around the Worker whose objects count each call, each
//     statement's rows and each alarm set (the objects run in the Worker's isolate locally);
//   - the heaviest request: a create with the largest valid body, with Sandbox-Clock pinned, so
//     that its IDs are derived by HMAC in pure JavaScript, against the Free plan's 10 ms of CPU.
// Linux only (/proc); relative figures, except the 10 ms, which is Cloudflare's own limit.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PUBLIC_KEY } from './scenarios.mjs';

const COMPATIBILITY_DATE = '2026-04-20';
const MS_PER_TICK = 10;
const AUTH = { Authorization: `Bearer ${PUBLIC_KEY}` };
/** A rate limit no bench request meets, so that the limiter's Durable Object is called as deployed. */
const RATE_LIMIT = '100000';
const PINNED_CLOCK = '2026-03-02T17:00:00Z';

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Every process below this one (Linux /proc). */
function descendants(pid = process.pid) {
  const found = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(' ').filter(Boolean)) {
        found.push(Number(child), ...descendants(Number(child)));
      }
    }
  } catch {
    // Gone meanwhile.
  }
  return found;
}

const isWorkerd = (pid) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('workerd');
  } catch {
    return false;
  }
};

/** User and system CPU of the processes, in ms. */
function cpuMs(pids) {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // Gone.
    }
  }
  return ticks * MS_PER_TICK;
}

/** A new instance, with the workerd processes it started. */
async function instance(Miniflare, options) {
  const before = new Set(descendants());
  // The Worker's log line per request (src/worker.ts) would fill the report: its stdout is dropped.
  const mf = new Miniflare({
    ...options,
    handleRuntimeStdio(stdout, stderr) {
      stdout.resume();
      stderr.pipe(process.stderr);
    },
  });
  await mf.ready;
  const pids = descendants().filter((pid) => !before.has(pid) && isWorkerd(pid));
  return { mf, pids, cpu: () => cpuMs(pids) };
}

async function call(mf, { method = 'GET', path, headers = {}, body }) {
  const response = await mf.dispatchFetch(`http://sandbox.local${path}`, { method, headers: { ...AUTH, ...headers }, body });
  return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
}

/** A create with the largest body a create takes: every metadata pair at its limits, notes to 1 MiB. */
function largestSiteBody(site) {
  const metadata = Object.fromEntries(
    Array.from({ length: 20 }, (_, index) => [`key_${String(index).padStart(2, '0')}${'k'.repeat(34)}`, 'v'.repeat(500)]),
  );
  const base = {
    client: site.client,
    name: 'Yard at the limits',
    address: { line1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701' },
    metadata,
  };
  const room = 1024 * 1024 - Buffer.byteLength(JSON.stringify({ ...base, access_notes: '' })) - 16;
  return JSON.stringify({ ...base, access_notes: 'n'.repeat(room) });
}

/** The requests measured, from the sandbox's own records, with the bytes it answers. */
async function captureKinds(Miniflare, options) {
  const { mf } = await instance(Miniflare, options);
  try {
    const container = JSON.parse((await call(mf, { path: '/v1/containers?limit=1' })).body).data[0];
    const site = JSON.parse((await call(mf, { path: '/v1/sites?limit=1' })).body).data[0];
    const job = JSON.stringify({ type: 'ci_pickup', client: site.client, site: site.id });
    const json = { 'Content-Type': 'application/json' };
    const kinds = [
      { name: 'list', path: '/v1/jobs?limit=100', expect: 200 },
      { name: 'get', path: `/v1/containers/${container.id}`, expect: 200 },
      { name: 'create', method: 'POST', path: '/v1/jobs', headers: json, body: job, expect: 201 },
      { name: 'create, Idempotency-Key', method: 'POST', path: '/v1/jobs', headers: json, body: job, expect: 201, keyed: true },
    ];
    const heaviest = {
      name: 'heaviest: pinned create, largest body',
      method: 'POST',
      path: '/v1/sites',
      headers: { ...json, 'Sandbox-Clock': PINNED_CLOCK },
      body: largestSiteBody(site),
      expect: 201,
      keyed: true,
    };
    for (const kind of [...kinds, heaviest]) {
      const answer = await call(mf, withKey(kind, 'capture'));
      if (answer.status !== kind.expect)
        throw new Error(`${kind.name}: ${kind.method ?? 'GET'} ${kind.path} answered ${answer.status}: ${answer.body.slice(0, 200)}`);
      kind.answer = answer;
    }
    return { kinds, heaviest };
  } finally {
    await mf.dispose();
  }
}

function withKey(kind, suffix) {
  return kind.keyed ? { ...kind, headers: { ...kind.headers, 'Idempotency-Key': `bench-${process.pid}-${kind.path}-${suffix}` } } : kind;
}

/** A Worker answering each measured request with the sandbox's bytes, from memory. */
function bareWorkerSource(kinds) {
  const table = Object.fromEntries(
    kinds.map((kind) => [
      `${kind.method ?? 'GET'} ${kind.path}`,
      {
        status: kind.answer.status,
        headers: { 'Content-Type': kind.answer.headers['content-type'], 'Request-Id': kind.answer.headers['request-id'] },
        body: kind.answer.body,
      },
    ]),
  );
  return `const TABLE = ${JSON.stringify(table)};
export default {
  async fetch(request) {
    const url = new URL(request.url);
    const found = TABLE[request.method + ' ' + url.pathname + url.search];
    if (request.body) await request.arrayBuffer();
    return found ? new Response(found.body, { status: found.status, headers: found.headers }) : new Response('{}', { status: 404 });
  },
};
`;
}

/** The sandbox's Worker behind a module whose Durable Objects count the calls they get. */
function countingWrapperSource(workerPath, wrapperDirectory) {
  const target = relative(wrapperDirectory, workerPath).split('\\').join('/');
  return `import worker, { IdempotencyObject as Idempotency, RateLimitObject as RateLimits } from './${target}';
let calls = 0;
let rowsWritten = 0;
let rowsRead = 0;
function counted(Base) {
  // SQLite rows as Cloudflare bills them: each statement's cursor says how many it read and wrote,
  // and each setAlarm() is billed as one row written (the Durable Objects pricing page).
  const Counted = class extends Base {
    constructor(ctx, env) {
      super(ctx, env);
      const sql = ctx.storage.sql;
      const exec = sql.exec.bind(sql);
      sql.exec = (...args) => {
        const cursor = exec(...args);
        const rows = cursor.toArray();
        rowsWritten += cursor.rowsWritten;
        rowsRead += cursor.rowsRead;
        return { toArray: () => rows, one: () => rows[0], [Symbol.iterator]: () => rows[Symbol.iterator](), rowsRead: cursor.rowsRead, rowsWritten: cursor.rowsWritten };
      };
      const setAlarm = ctx.storage.setAlarm.bind(ctx.storage);
      ctx.storage.setAlarm = (...args) => {
        rowsWritten++;
        return setAlarm(...args);
      };
    }
  };
  for (const name of Object.getOwnPropertyNames(Base.prototype)) {
    const descriptor = Object.getOwnPropertyDescriptor(Base.prototype, name);
    if (name === 'constructor' || typeof descriptor.value !== 'function') continue;
    Object.defineProperty(Counted.prototype, name, { ...descriptor, value: function (...args) { calls++; return descriptor.value.apply(this, args); } });
  }
  return Counted;
}
export const IdempotencyObject = counted(Idempotency);
export const RateLimitObject = counted(RateLimits);
export default {
  fetch(request, env, ctx) {
    if (new URL(request.url).pathname === '/__bench/durable-object-calls') return Response.json({ calls, rowsWritten, rowsRead });
    return worker.fetch(request, env, ctx);
  },
};
`;
}

/** One kind of request, `count` times one at a time: req/s and CPU per request of workerd. */
async function perRequest(target, kind, count) {
  for (let i = 0; i < 10; i++) await call(target.mf, withKey(kind, `warm-${i}`));
  const cpuBefore = target.cpu();
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const answer = await call(target.mf, withKey(kind, `run-${performance.now()}-${i}`));
    if (answer.status !== kind.expect) throw new Error(`${kind.name} answered ${answer.status}: ${answer.body.slice(0, 200)}`);
  }
  const elapsed = performance.now() - started;
  return { rps: (count * 1000) / elapsed, cpuMs: (target.cpu() - cpuBefore) / count };
}

/**
 * Everything above, or { na } when Miniflare or the Worker bundle cannot be used. `runs` new
 * instances of each Worker for start-up; `requests` of each kind per figure.
 */
export async function measureWorkers(root, { runs, requests }) {
  let Miniflare;
  try {
    ({ Miniflare } = await import('miniflare'));
  } catch (error) {
    return { na: `miniflare cannot be loaded: ${error.message}` };
  }
  if (process.platform !== 'linux') return { na: 'workerd CPU is read from /proc: Linux only' };
  // Under node_modules, so that one modules root holds the wrapper, the bare Worker and the bundle.
  const scratch = join(root, 'node_modules', '.cache', 'bench-workers');
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  const workerPath = join(root, 'dist/worker/sandbox-worker.js');
  const common = { modules: true, modulesRoot: root, compatibilityDate: COMPATIBILITY_DATE, compatibilityFlags: ['enable_request_signal'] };
  const durableObjects = {
    IDEMPOTENCY: { className: 'IdempotencyObject', useSQLite: true },
    RATE_LIMITS: { className: 'RateLimitObject', useSQLite: true },
  };
  // As wrangler.toml's rules: the bundle's modules, and the prebuilt sample data as a Data module (*.bin).
  const modulesRules = [
    { type: 'ESModule', include: ['**/*.js', '**/*.mjs'] },
    { type: 'Data', include: ['**/*.bin'] },
  ];
  const sandboxOptions = { ...common, modulesRules, scriptPath: workerPath, durableObjects, bindings: { SANDBOX_RATE_LIMIT: RATE_LIMIT } };
  const countingPath = join(scratch, 'counting.mjs');
  writeFileSync(countingPath, countingWrapperSource(workerPath, scratch));
  const countingOptions = { ...sandboxOptions, scriptPath: countingPath };
  try {
    const { kinds, heaviest } = await captureKinds(Miniflare, sandboxOptions);
    const barePath = join(scratch, 'bare.mjs');
    writeFileSync(barePath, bareWorkerSource([...kinds, heaviest]));
    const bareOptions = { ...common, scriptPath: barePath };

    // New isolates, interleaved so that a burst of load elsewhere hits both alike.
    const start = { sandbox: [], bare: [] };
    for (let run = 0; run < runs; run++) {
      for (const [name, options] of [
        ['sandbox', sandboxOptions],
        ['bare', bareOptions],
      ]) {
        const target = await instance(Miniflare, options);
        try {
          const ready = target.cpu();
          await call(target.mf, kinds[0]);
          start[name].push({ ready, first: target.cpu() - ready });
        } finally {
          await target.mf.dispose();
        }
      }
    }

    // Per request, on one warm instance of each.
    const sandbox = await instance(Miniflare, sandboxOptions);
    const bare = await instance(Miniflare, bareOptions);
    const perKind = [];
    try {
      for (const kind of [...kinds, heaviest]) {
        const count = kind === heaviest ? Math.max(10, Math.round(requests / 5)) : requests;
        perKind.push({ kind: kind.name, sandbox: await perRequest(sandbox, kind, count), bare: await perRequest(bare, kind, count) });
      }
    } finally {
      await Promise.all([sandbox.mf.dispose(), bare.mf.dispose()]);
    }

    // Durable Object calls per request, each kind on a fresh counting instance.
    const calls = {};
    const rows = {};
    for (const kind of [...kinds, heaviest]) {
      const counting = await instance(Miniflare, countingOptions);
      try {
        const counts = async () => JSON.parse((await call(counting.mf, { path: '/__bench/durable-object-calls' })).body);
        const before = await counts();
        for (let i = 0; i < 10; i++) await call(counting.mf, withKey(kind, `count-${i}`));
        const after = await counts();
        calls[kind.name] = (after.calls - before.calls) / 10;
        rows[kind.name] = { written: (after.rowsWritten - before.rowsWritten) / 10, read: (after.rowsRead - before.rowsRead) / 10 };
      } finally {
        await counting.mf.dispose();
      }
    }

    const summary = (series) => ({
      ready: median(series.map((run) => run.ready)),
      first: median(series.map((run) => run.first)),
      all: series,
    });
    return {
      runs,
      requests,
      start: { sandbox: summary(start.sandbox), bare: summary(start.bare) },
      perKind,
      calls,
      rows,
      heaviest: { name: heaviest.name, bodyBytes: Buffer.byteLength(heaviest.body) },
    };
  } catch (error) {
    return { na: `Miniflare run failed: ${error.message}` };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
