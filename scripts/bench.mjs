// `npm run bench` (after `npm run build`): the sandbox on Node against a bare @hono/node-server
// baseline serving the sandbox's own bytes, plus cold start against a bare server, heap, the
// Worker bundle's size and Workers start-up in Miniflare against a bare Worker, and the container
// image's start and size (scripts/bench/container.mjs; n/a without a Docker engine).
// Everything runs on 127.0.0.1. The figures are for people: PASS/FAIL never changes the exit code,
// because a shared 2-core machine is too noisy to fail a build on them. Only a benchmark that
// cannot run (build missing, server down, wrong answers from the baseline) exits non-zero.
//
// Settings (environment):
//   BENCH_SECONDS         seconds per measured round            (default 3)
//   BENCH_ROUNDS          rounds per scenario and server         (default 5)
//   BENCH_WARMUP_SECONDS  warm-up per scenario and server        (default 1)
//   BENCH_HEAP_SECONDS    idempotency-key run for the heap check (default 30)
//   BENCH_COLD_RUNS       cold starts per measured path, and new
//                         processes / Worker isolates             (default 7)
//   BENCH_WORKER_REQUESTS requests per kind on Workers            (default 200)
// Quick smoke run:
//   BENCH_SECONDS=1 BENCH_ROUNDS=1 BENCH_WARMUP_SECONDS=0.5 BENCH_HEAP_SECONDS=3 BENCH_COLD_RUNS=1 npm run bench
// Only the cost of a million requests on Workers (builds the Worker, measures it, prices the mix):
//   node scripts/bench.mjs --workers-cost
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { send, sender } from './bench/http.mjs';
import { CONNECTIONS, runLoad, runSequential } from './bench/load.mjs';
import { assertRunning, forkTracked, killAll, nextMessage, stop } from './bench/processes.mjs';
import { coldStart, startSandbox } from './bench/sandbox.mjs';
import { captureScenarios, P99_ALLOWANCE_MS, P99_RATIO_LIMIT, p99Limit, responseDifference, TARGETS } from './bench/scenarios.mjs';
import { formatKiB, formatMiB, formatMs, formatRatio, formatRps, formatSpread, spread, table, verdict } from './bench/stats.mjs';
import { IN_PROCESS_PROGRAMS, timeProgram } from './bench/in-process.mjs';
import { measureWorkers } from './bench/workers.mjs';
import { costOfMillion, DEFAULT_MIX, INCLUDED } from './bench/workers-cost.mjs';
import { measureContainer } from './bench/container.mjs';
import { workerBundleSize } from './bench/worker-size.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MiB = 1024 * 1024;
/** The idempotency store is capped at 32 MiB; twice that leaves room for gc timing, not for a leak. */
const HEAP_MARGIN = 64 * MiB;
/** Workers' Free plan limit for the gzipped Worker upload (wrangler measures it the same way). */
const WORKER_GZIP_LIMIT = 3 * MiB;

function setting(name, fallback, { integer = false } = {}) {
  const text = process.env[name];
  if (text === undefined || text.trim() === '') return fallback;
  const value = Number(text);
  if (!(value > 0) || (integer && !Number.isInteger(value))) {
    throw new Error(`${name} must be a positive ${integer ? 'whole ' : ''}number, not "${text}"`);
  }
  return value;
}

function readSettings() {
  return {
    seconds: setting('BENCH_SECONDS', 3),
    rounds: setting('BENCH_ROUNDS', 5, { integer: true }),
    warmup: setting('BENCH_WARMUP_SECONDS', 1),
    heapSeconds: setting('BENCH_HEAP_SECONDS', 30),
    coldRuns: setting('BENCH_COLD_RUNS', 7, { integer: true }),
    workerRequests: setting('BENCH_WORKER_REQUESTS', 200, { integer: true }),
  };
}

function requireBuild() {
  for (const file of ['dist/server.js', 'dist/app.js']) {
    if (!existsSync(join(ROOT, file))) throw new Error(`${file} is missing: run \`npm run bench\` (it builds first) or \`npm run build\``);
  }
}

// ---------------------------------------------------------------------------------------------
// Cold start

/** Start-up target (issue #24): spawn to first 200 at most 1.2 times a bare server's, same run. */
const COLD_START_RATIO_LIMIT = 1.2;
/** In-process target (issue #24): import + createSandbox() + first GET at most 2 times Hono's. */
const IN_PROCESS_RATIO_LIMIT = 2;
/** Workers targets: a new isolate's CPU at most 2 times a bare Worker's; the heaviest request within the Free plan's CPU. */
const WORKER_START_RATIO_LIMIT = 2;
const WORKER_CPU_LIMIT_MS = 10;

/**
 * The other Node versions users run, as `npm test` keeps them (scripts/node-versions.mjs):
 * measured when their binary is already in the cache, never downloaded by the benchmark.
 */
const OTHER_NODE_VERSIONS = ['22', '24'];

function cachedNode(major) {
  const binary = join(ROOT, 'node_modules', '.cache', 'node-versions', major, 'bin', 'node');
  return existsSync(binary) ? binary : undefined;
}

/** The same comparison on another Node version: node dist/server.js and the bare server, interleaved. */
async function measureColdStartsOn(major, runs) {
  const node = cachedNode(major);
  if (node === undefined) {
    console.log(`  Node ${major}: not measured (no binary in node_modules/.cache/node-versions; \`npm test\` fetches it)`);
    return { major, measured: false };
  }
  const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  const jobs = [];
  const bare = [];
  for (let run = 0; run < runs; run++) {
    bare.push(await coldStart(ROOT, '/v1/jobs?limit=1', 'scripts/bench/bare-start.mjs', node));
    jobs.push(await coldStart(ROOT, '/v1/jobs?limit=1', 'dist/server.js', node));
  }
  console.log(`  Node ${version}: sandbox ${jobs.map(formatMs).join(', ')} ms; bare ${bare.map(formatMs).join(', ')} ms`);
  return { major, version, measured: true, jobs: spread(jobs), bare: spread(bare), ratio: spread(jobs.map((ms, i) => ms / bare[i])) };
}

async function measureColdStarts(runs) {
  const jobs = [];
  const bin = [];
  const health = [];
  const bare = [];
  // Interleaved, so a burst of load elsewhere on the machine hits every series alike.
  for (let run = 0; run < runs; run++) {
    bare.push(await coldStart(ROOT, '/v1/jobs?limit=1', 'scripts/bench/bare-start.mjs'));
    jobs.push(await coldStart(ROOT, '/v1/jobs?limit=1'));
    bin.push(await coldStart(ROOT, '/v1/jobs?limit=1', 'dist/cli.js'));
    health.push(await coldStart(ROOT, '/health'));
  }
  console.log(`  sandbox, node dist/server.js, GET /v1/jobs?limit=1: ${jobs.map(formatMs).join(', ')} ms`);
  console.log(`  sandbox, the bin (node dist/cli.js), the same:     ${bin.map(formatMs).join(', ')} ms`);
  console.log(`  bare,    node scripts/bench/bare-start.mjs, same:  ${bare.map(formatMs).join(', ')} ms`);
  console.log(`  sandbox, node dist/server.js, GET /health:         ${health.map(formatMs).join(', ')} ms`);
  // Start-up is what differs most between versions (the compile cache, V8's heap defaults).
  const versions = [];
  for (const major of OTHER_NODE_VERSIONS) {
    if (process.versions.node.split('.')[0] !== major) versions.push(await measureColdStartsOn(major, runs));
  }
  return {
    runs,
    jobs: spread(jobs),
    bin: spread(bin),
    health: spread(health),
    bare: spread(bare),
    ratio: spread(jobs.map((ms, i) => ms / bare[i])),
    binRatio: spread(bin.map((ms, i) => ms / bare[i])),
    versions,
  };
}

/** A fresh process: import + createSandbox() + first GET, against import Hono + one route + the same GET. */
async function measureInProcess(runs) {
  const sandbox = [];
  const bare = [];
  for (let run = 0; run < runs; run++) {
    bare.push(await timeProgram(ROOT, IN_PROCESS_PROGRAMS.bare));
    sandbox.push(await timeProgram(ROOT, IN_PROCESS_PROGRAMS.sandbox));
  }
  console.log(`  sandbox (dist/index.js): ${sandbox.map(formatMs).join(', ')} ms; Hono, one route: ${bare.map(formatMs).join(', ')} ms`);
  return { runs, sandbox: spread(sandbox), bare: spread(bare), ratio: spread(sandbox.map((ms, i) => ms / bare[i])) };
}

// ---------------------------------------------------------------------------------------------
// Throughput: sandbox against baseline

async function startBaseline(scenarios) {
  const child = forkTracked(join(ROOT, 'scripts/bench/baseline-server.mjs'), [], { cwd: ROOT });
  const ready = nextMessage(child, 'ready', 30_000, 'baseline server');
  child.send({ type: 'scenarios', scenarios });
  return { child, port: (await ready).port };
}

/** The create scenario's reference: a minimal Hono + zod create (scripts/bench/minimal-create-app.mjs). */
async function startMinimalCreate(createScenario) {
  const child = forkTracked(join(ROOT, 'scripts/bench/baseline-server.mjs'), [], { cwd: ROOT });
  const ready = nextMessage(child, 'ready', 30_000, 'minimal create server');
  child.send({ type: 'template', template: JSON.parse(createScenario.response.body.toString('utf8')) });
  const port = (await ready).port;
  const check = await send(port, createScenario);
  if (check.status !== createScenario.expect) {
    throw new Error(`minimal create answered ${check.status}, not ${createScenario.expect}: ${Buffer.from(check.body).toString('utf8')}`);
  }
  return { child, port };
}

/** Linux reports a process's CPU in /proc in clock ticks of 10 ms: a run of seconds reads within 1%. */
const MS_PER_TICK = 10;

/** User + system CPU of a process in ms, or undefined where /proc is not there. */
function processCpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK;
  } catch {
    return undefined;
  }
}

/** The comparison is only fair if the baseline answers what the sandbox answered, byte for byte. */
async function checkBaselineBytes(port, scenarios) {
  for (const scenario of scenarios) {
    const difference = responseDifference(scenario.response, await send(port, scenario));
    if (difference !== null) throw new Error(`baseline ${scenario.method} ${scenario.path}: ${difference}`);
  }
}

function describeRun(run) {
  const cpu = run.cpuUs === undefined ? '' : ` CPU ${formatCpuUs(run.cpuUs)} µs/req`;
  return `${formatRps(run.rps)} req/s p50 ${formatMs(run.p50)} p99 ${formatMs(run.p99)} ms${cpu}${run.unexpected > 0 ? ` (${run.unexpected} unexpected answers)` : ''}`;
}

const formatCpuUs = (value) => value.toFixed(1);

function summariseRuns(runs) {
  return {
    rps: spread(runs.map((run) => run.rps)),
    p50: spread(runs.map((run) => run.p50)),
    p99: spread(runs.map((run) => run.p99)),
    cpuUs: runs.every((run) => run.cpuUs !== undefined) ? spread(runs.map((run) => run.cpuUs)) : undefined,
    unexpected: runs.reduce((sum, run) => sum + run.unexpected, 0),
    statuses: [...new Set(runs.flatMap((run) => Object.keys(run.statuses)))].join('/'),
  };
}

/**
 * One load run against a server that must still be up afterwards for the figures to count, with
 * the server process's CPU per completed request: with the load generator on the same two cores,
 * req/s also depends on how the cores are shared; CPU per request is the server's own cost.
 */
async function loadServer(server, scenario, seconds) {
  const before = processCpuMs(server.child.pid);
  const result = await runLoad(server.port, scenario, seconds);
  const after = processCpuMs(server.child.pid);
  assertRunning(server.child, `the ${server.name} server`);
  const cpuUs =
    before === undefined || after === undefined || result.completed === 0 ? undefined : ((after - before) * 1000) / result.completed;
  return { ...result, cpuUs };
}

/** The ratio of two servers' figure, round by round (each pair ran back to back under the same background load). */
function perRound(runs, of, over, figure) {
  const values = runs[of].map((run, round) => run[figure] / runs[over][round][figure]);
  return values.every(Number.isFinite) ? spread(values) : undefined;
}

async function measureScenario(scenario, servers, { seconds, rounds, warmup }) {
  // The create also runs on its reference, a minimal Hono + zod create.
  const names = ['sandbox', 'baseline', ...(scenario.name === 'create' && servers.reference ? ['reference'] : [])];
  // Not counted: lets each server's JIT settle on this request before the measured rounds.
  for (const name of names) await loadServer(servers[name], scenario, warmup);
  const runs = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    // Rotate who goes first, so a drift in the machine's load favours no server.
    const order = names.map((_, index) => names[(index + round) % names.length]);
    for (const name of order) runs[name].push(await loadServer(servers[name], scenario, seconds));
    const described = names.map((name) => `${servers[name].name} ${describeRun(runs[name][round])}`).join(' | ');
    console.log(
      `  ${scenario.name.padEnd(6)} round ${round + 1}/${rounds}: ${described} | ratio ${formatRatio(runs.sandbox[round].rps / runs.baseline[round].rps)}`,
    );
  }
  const reference = runs.reference
    ? {
        summary: summariseRuns(runs.reference),
        ratio: perRound(runs, 'reference', 'baseline', 'rps'),
        sandboxRatio: perRound(runs, 'sandbox', 'reference', 'rps'),
        cpuRatio: perRound(runs, 'reference', 'baseline', 'cpuUs'),
        sandboxCpuRatio: perRound(runs, 'sandbox', 'reference', 'cpuUs'),
      }
    : undefined;
  return {
    scenario,
    sandbox: summariseRuns(runs.sandbox),
    baseline: summariseRuns(runs.baseline),
    // Ratios per round: each pair ran back to back under the same background load.
    ratio: spread(runs.sandbox.map((run, round) => run.rps / runs.baseline[round].rps)),
    cpuRatio: perRound(runs, 'sandbox', 'baseline', 'cpuUs'),
    reference,
  };
}

async function measureThroughput(settings) {
  const sandbox = await startSandbox(ROOT);
  const scenarios = await captureScenarios(sender(sandbox.port));
  const baseline = await startBaseline(scenarios);
  await checkBaselineBytes(baseline.port, scenarios);
  for (const { name, method, path, response } of scenarios) {
    console.log(`  ${name.padEnd(6)} ${method} ${path} -> ${response.status}, ${response.body.length} bytes (baseline: same bytes)`);
  }
  const reference = await startMinimalCreate(scenarios.find((scenario) => scenario.name === 'create'));
  console.log('  create also on a minimal Hono + zod create (scripts/bench/minimal-create-app.mjs): a record of the same shape');
  const servers = {
    sandbox: { name: 'sandbox', ...sandbox },
    baseline: { name: 'baseline', ...baseline },
    reference: { name: 'minimal create', ...reference },
  };
  const results = [];
  for (const scenario of scenarios) results.push(await measureScenario(scenario, servers, settings));
  await Promise.all([stop(sandbox.child), stop(baseline.child), stop(reference.child)]);
  return { scenarios, results };
}

// ---------------------------------------------------------------------------------------------
// Writes with events and with a pinned clock, against the same write without (issues #16, #17)

/** Writes as a CI suite sends them: one at a time on one connection, a few ms apart. */
const PACED = { count: 600, gapMs: 3 };

/**
 * POST /v1/jobs three ways, in rounds that rotate the order: on a sandbox without a webhook (the
 * baseline), on one delivering job.created to a receiver process, and with Sandbox-Clock (derived
 * IDs). Twice: paced as a CI suite sends writes, where the answer time must not depend on the
 * delivery, and as a flood of 50 connections, where deliveries share the two cores.
 */
async function measureWriteExtras(createScenario, { seconds, rounds, warmup }) {
  const receiver = forkTracked(join(ROOT, 'scripts/bench/receiver.mjs'), [], { cwd: ROOT });
  const { port: receiverPort } = await nextMessage(receiver, 'ready', 30_000, 'receiver');
  const plain = { name: 'sandbox', ...(await startSandbox(ROOT)) };
  const delivering = {
    name: 'sandbox with webhook',
    ...(await startSandbox(ROOT, {
      SANDBOX_WEBHOOK_URL: `http://127.0.0.1:${receiverPort}/webhooks`,
      SANDBOX_WEBHOOK_SECRET: 'whsec_benchReceiverSecret',
    })),
  };
  // Failures on demand (issue #22): a server drawing a random fault for every request (a fraction
  // of 0, so none hits: the cost of the draw alone), and a request that asks for a delay of 0 (the
  // cost of the fault path: the plan, Sandbox-Fault, the held-answer place).
  const drawing = { name: 'sandbox with SANDBOX_FAULTS', ...(await startSandbox(ROOT, { SANDBOX_FAULTS: 'api_error=0' })) };
  const pinned = { ...createScenario, name: 'pinned', headers: { ...createScenario.headers, 'Sandbox-Clock': '2026-03-02T17:00:00Z' } };
  const delayed = { ...createScenario, name: 'delay=0', headers: { ...createScenario.headers, 'Sandbox-Simulate': 'delay=0' } };
  const series = [
    { label: 'create, no webhook', server: plain, scenario: createScenario },
    { label: 'create, webhook delivering', server: delivering, scenario: createScenario },
    { label: 'create, Sandbox-Clock pinned', server: plain, scenario: pinned },
    { label: 'create, SANDBOX_FAULTS drawn', server: drawing, scenario: createScenario },
    { label: 'create, Sandbox-Simulate: delay=0', server: plain, scenario: delayed },
  ];
  const deliveredSoFar = async () => {
    const reply = nextMessage(receiver, 'count', 10_000, 'receiver');
    receiver.send({ type: 'count' });
    return (await reply).delivered;
  };
  // A delivering server may still drain its queue after its run: wait until deliveries stop, so
  // the next series never shares the cores with them.
  const settle = async () => {
    let last = -1;
    for (let tries = 0; tries < 50; tries++) {
      const now = await deliveredSoFar();
      if (now === last) return;
      last = now;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const results = {};
  for (const [mode, options] of [
    ['paced', PACED],
    ['flood', {}],
  ]) {
    const measure = (server, scenario, time) =>
      mode === 'paced' ? runSequential(server.port, scenario, options.count, options.gapMs) : runLoad(server.port, scenario, time);
    for (const { server, scenario } of series) await measure(server, scenario, warmup);
    await settle();
    const runs = series.map(() => []);
    for (let round = 0; round < rounds; round++) {
      const order = series.map((_, index) => (index + round) % series.length);
      for (const index of order) {
        runs[index].push(await measure(series[index].server, series[index].scenario, seconds));
        assertRunning(series[index].server.child, series[index].server.name);
        if (series[index].server === delivering) await settle();
      }
      console.log(
        `  ${mode} round ${round + 1}/${rounds}: ${series.map((item, index) => `${item.label} ${describeRun(runs[index][round])}`).join(' | ')}`,
      );
    }
    results[mode] = series.map((item, index) => ({
      label: item.label,
      ...summariseRuns(runs[index]),
      ratio: spread(runs[index].map((run, round) => run.rps / runs[0][round].rps)),
      p50Ratio: spread(runs[index].map((run, round) => run.p50 / runs[0][round].p50)),
    }));
  }
  const delivered = await deliveredSoFar();
  await Promise.all([stop(plain.child), stop(delivering.child), stop(drawing.child), stop(receiver)]);
  return { delivered, ...results };
}

function printWriteExtras(extras) {
  const rows = [];
  for (const mode of ['paced', 'flood']) {
    for (const item of extras[mode]) {
      rows.push([
        mode === 'paced' ? `one at a time, ${PACED.gapMs} ms apart (${PACED.count})` : `flood (${CONNECTIONS} connections)`,
        item.label,
        formatSpread(item.rps, formatRps),
        formatSpread(item.p50, formatMs),
        formatSpread(item.p99, formatMs),
        formatSpread(item.p50Ratio, formatRatio),
        formatSpread(item.ratio, formatRatio),
      ]);
    }
  }
  console.log('\nWrites with events, a pinned clock and faults: POST /v1/jobs, ratios against "create, no webhook" in the same round\n');
  console.log(table(['load', 'series', 'req/s', 'p50 ms', 'p99 ms', 'p50 ratio', 'req/s ratio'], rows));
  console.log(`  the receiver got ${extras.delivered} deliveries (in a flood the dispatcher drops the oldest waiting when 100 wait)`);
}

// ---------------------------------------------------------------------------------------------
// Heap: after loading, and after a run of distinct idempotency keys

function heapOf(host) {
  assertRunning(host, 'the app host');
  const reply = nextMessage(host, 'heap', 60_000, 'app host');
  host.send({ type: 'heap' });
  return reply;
}

async function measureHeap(createScenario, seconds) {
  // Keys are this prefix and a counter, so the host can count distinct ones in a bitmap.
  const prefix = `bench-${process.pid}-${Date.now()}-`;
  const host = forkTracked(join(ROOT, 'scripts/bench/app-host.mjs'), [prefix], { cwd: ROOT, execArgv: ['--expose-gc'] });
  const ready = await nextMessage(host, 'ready', 120_000, 'app host');
  console.log(`  heap before the sample data ${formatMiB(ready.heapBeforeLoad)}, after ${formatMiB(ready.heapAfterLoad)}`);
  const before = await heapOf(host);
  let counter = 0;
  const load = await runLoad(ready.port, createScenario, seconds, {
    // autocannon gives each call a fresh headers object, so this never touches the scenario's.
    setupRequest: (request) => {
      request.headers['Idempotency-Key'] = `${prefix}${counter++}`;
      return request;
    },
  });
  const after = await heapOf(host);
  await stop(host);
  console.log(
    `  ${load.sent} requests sent in ${seconds} s (${describeRun(load)}); heap ${formatMiB(before.heapUsed)} -> ${formatMiB(after.heapUsed)}`,
  );
  return {
    seconds,
    heapBeforeLoad: ready.heapBeforeLoad,
    heapAfterLoad: ready.heapAfterLoad,
    heapBeforeRun: before.heapUsed,
    heapAfterRun: after.heapUsed,
    load,
    keyedRequests: after.keyed,
    distinctKeys: after.distinctKeys,
    replayed: after.replayed,
  };
}

// ---------------------------------------------------------------------------------------------
// Report

function printThroughput({ results }, settings) {
  const rows = [];
  for (const { scenario, sandbox, baseline, reference } of results) {
    for (const [server, summary] of [
      ['sandbox', sandbox],
      ['baseline', baseline],
      ...(reference ? [['minimal Hono + zod', reference.summary]] : []),
    ]) {
      rows.push([
        server === 'sandbox' ? scenario.name : '',
        server === 'sandbox' ? (scenario.label ?? `${scenario.method} ${scenario.path}`) : '',
        server,
        formatSpread(summary.rps, formatRps),
        formatSpread(summary.p50, formatMs),
        formatSpread(summary.p99, formatMs),
        summary.cpuUs ? formatSpread(summary.cpuUs, formatCpuUs) : 'n/a',
        summary.statuses,
        String(summary.unexpected),
      ]);
    }
  }
  console.log(
    `\nThroughput: ${CONNECTIONS} connections, median (min–max) of ${settings.rounds} round(s) of ${settings.seconds} s per server, alternating\n`,
  );
  console.log(table(['scenario', 'request', 'server', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req', 'status', 'unexpected'], rows));
}

function targetRows(throughput, heap, worker, cold, inProcess, workers) {
  const rows = [
    [
      'spawn to first 200 of GET /v1/jobs?limit=1, node dist/server.js / bare',
      `<= ${formatRatio(COLD_START_RATIO_LIMIT)}`,
      formatSpread(cold.ratio, formatRatio),
      verdict(cold.ratio.median <= COLD_START_RATIO_LIMIT),
    ],
    [
      'spawn to first 200 of GET /v1/jobs?limit=1, the bin (dist/cli.js) / bare',
      `<= ${formatRatio(COLD_START_RATIO_LIMIT)}`,
      formatSpread(cold.binRatio, formatRatio),
      verdict(cold.binRatio.median <= COLD_START_RATIO_LIMIT),
    ],
    ...cold.versions
      .filter((other) => other.measured)
      .map((other) => [
        `spawn to first 200 of GET /v1/jobs?limit=1, node dist/server.js / bare, Node ${other.version}`,
        `<= ${formatRatio(COLD_START_RATIO_LIMIT)}`,
        formatSpread(other.ratio, formatRatio),
        verdict(other.ratio.median <= COLD_START_RATIO_LIMIT),
      ]),
    [
      'in-process: import + createSandbox() + first GET / Hono one-route app',
      `<= ${formatRatio(IN_PROCESS_RATIO_LIMIT)}`,
      formatSpread(inProcess.ratio, formatRatio),
      verdict(inProcess.ratio.median <= IN_PROCESS_RATIO_LIMIT),
    ],
  ];
  for (const { scenario, sandbox, baseline, ratio, cpuRatio, reference } of throughput.results) {
    const target = TARGETS[scenario.name];
    rows.push([
      `${scenario.name}: sandbox/baseline req/s`,
      `>= ${formatRatio(target.ratio)}`,
      formatSpread(ratio, formatRatio),
      verdict(ratio.median >= target.ratio),
    ]);
    // No targets of their own: what the server itself spends per request, and the create's reference.
    if (cpuRatio) rows.push([`${scenario.name}: sandbox/baseline CPU per request`, 'diagnostic', formatSpread(cpuRatio, formatRatio), '-']);
    if (reference?.ratio) {
      rows.push(
        ['create: minimal Hono + zod create/baseline req/s', 'reference', formatSpread(reference.ratio, formatRatio), '-'],
        ['create: sandbox/minimal Hono + zod create req/s', 'reference', formatSpread(reference.sandboxRatio, formatRatio), '-'],
      );
      if (reference.cpuRatio) {
        rows.push(
          ['create: minimal Hono + zod create/baseline CPU per request', 'reference', formatSpread(reference.cpuRatio, formatRatio), '-'],
          [
            'create: sandbox/minimal Hono + zod create CPU per request',
            'reference',
            formatSpread(reference.sandboxCpuRatio, formatRatio),
            '-',
          ],
        );
      }
    }
    if (target.read) {
      // Against the baseline's p99 of the same run: what the sandbox adds, not the machine's noise.
      const limit = p99Limit(baseline.p99.median);
      rows.push([
        `${scenario.name}: sandbox p99 latency (baseline ${formatMs(baseline.p99.median)} ms)`,
        `<= ${formatMs(limit)} ms (${P99_RATIO_LIMIT}x + ${P99_ALLOWANCE_MS} ms)`,
        `${formatSpread(sandbox.p99, formatMs)} ms`,
        verdict(sandbox.p99.median <= limit),
      ]);
    }
  }
  rows.push(...workerTargetRows(workers));
  const heapLimit = heap.heapAfterLoad + HEAP_MARGIN;
  rows.push([
    `heap after ${heap.seconds} s of new Idempotency-Keys`,
    `< ${formatMiB(heapLimit)} (after load + 64 MiB)`,
    formatMiB(heap.heapAfterRun),
    verdict(heap.heapAfterRun < heapLimit),
  ]);
  rows.push(
    worker.na
      ? ['Worker bundle, gzip', `<= ${formatKiB(WORKER_GZIP_LIMIT)}`, `n/a (${worker.na})`, 'n/a']
      : [
          'Worker bundle, gzip',
          `<= ${formatKiB(WORKER_GZIP_LIMIT)}`,
          formatKiB(worker.gzipBytes),
          verdict(worker.gzipBytes <= WORKER_GZIP_LIMIT),
        ],
  );
  return rows;
}

function otherRows(cold, heap, worker, inProcess) {
  const load = heap.load;
  const statuses =
    Object.entries(load.statuses)
      .map(([status, count]) => `${count} x ${status}`)
      .join(', ') || 'none';
  return [
    [`spawn to first 200 of GET /v1/jobs?limit=1, node dist/server.js (${cold.runs} runs)`, `${formatSpread(cold.jobs, formatMs)} ms`],
    [`the same, the bin (node dist/cli.js)`, `${formatSpread(cold.bin, formatMs)} ms`],
    [`bare @hono/node-server, the same (${cold.runs} runs)`, `${formatSpread(cold.bare, formatMs)} ms`],
    ...cold.versions
      .filter((other) => other.measured)
      .flatMap((other) => [
        [`the same on Node ${other.version}: node dist/server.js`, `${formatSpread(other.jobs, formatMs)} ms`],
        [`the same on Node ${other.version}: bare`, `${formatSpread(other.bare, formatMs)} ms`],
      ]),
    [
      `in-process: import + createSandbox() + first GET, spawn to exit (${inProcess.runs} runs)`,
      `${formatSpread(inProcess.sandbox, formatMs)} ms`,
    ],
    ['the same, Hono with one route', `${formatSpread(inProcess.bare, formatMs)} ms`],
    [`cold start to first 200 of GET /health (${cold.runs} runs)`, `${formatSpread(cold.health, formatMs)} ms`],
    ['heap + array buffers before the sample data (code loaded)', formatMiB(heap.heapBeforeLoad)],
    ['heap + array buffers after createApp + a request to every list', formatMiB(heap.heapAfterLoad)],
    ['heap + array buffers of the sample data (difference)', formatMiB(heap.heapAfterLoad - heap.heapBeforeLoad)],
    [`idempotency run: POST /v1/jobs for ${heap.seconds} s, requests sent`, String(load.sent)],
    ['idempotency run: answers', `${statuses}; ${load.errors ?? 0} errors`],
    [
      'idempotency run: distinct Idempotency-Keys the server saw',
      `${heap.distinctKeys} of ${heap.keyedRequests} keyed requests, ${heap.replayed} replays`,
    ],
    ['idempotency run: heap before -> after (after gc)', `${formatMiB(heap.heapBeforeRun)} -> ${formatMiB(heap.heapAfterRun)}`],
    [
      'Worker bundle (npm run worker:build)',
      worker.na ? `n/a (${worker.na})` : `${worker.files.join(', ')}: ${formatKiB(worker.rawBytes)}, gzip ${formatKiB(worker.gzipBytes)}`,
    ],
  ];
}

/** The Workers figures with targets: a new isolate's CPU, and the heaviest request's. */
function workerTargetRows(workers) {
  if (workers.na) return [['Workers (Miniflare)', 'n/a', `n/a (${workers.na})`, 'n/a']];
  const { sandbox, bare } = workers.start;
  const ratio = sandbox.ready / Math.max(bare.ready, 10);
  const heaviest = workers.perKind.find((row) => row.kind === workers.heaviest.name);
  return [
    [
      `Worker: new isolate, workerd CPU to ready, sandbox / bare (${formatMs(sandbox.ready)} / ${formatMs(bare.ready)} ms)`,
      `<= ${formatRatio(WORKER_START_RATIO_LIMIT)}`,
      formatRatio(ratio),
      verdict(ratio <= WORKER_START_RATIO_LIMIT),
    ],
    [
      `Worker: ${workers.heaviest.name} (${formatKiB(workers.heaviest.bodyBytes)}), workerd CPU per request`,
      `<= ${WORKER_CPU_LIMIT_MS} ms (Free plan)`,
      `${formatMs(heaviest.sandbox.cpuMs)} ms (bare, same bytes: ${formatMs(heaviest.bare.cpuMs)} ms)`,
      verdict(heaviest.sandbox.cpuMs <= WORKER_CPU_LIMIT_MS),
    ],
  ];
}

/** Per request on Workers, side by side with the bare Worker: req/s, CPU and Durable Object calls. */
function printWorkers(workers) {
  if (workers.na) {
    console.log(`\nWorkers: n/a (${workers.na})`);
    return;
  }
  const { sandbox, bare } = workers.start;
  console.log(
    `\nWorkers (Miniflare on dist/worker, rate limit on so its Durable Object is called as deployed), ${workers.requests} requests one at a time per figure; workerd CPU from /proc in 10 ms ticks\n`,
  );
  console.log(
    table(
      ['request', 'req/s sandbox', 'req/s bare', 'req/s ratio', 'CPU ms/req sandbox', 'CPU ms/req bare', 'CPU ratio', 'DO calls/req'],
      workers.perKind.map(({ kind, sandbox: s, bare: b }) => [
        kind,
        formatRps(s.rps),
        formatRps(b.rps),
        formatRatio(s.rps / b.rps),
        formatMs(s.cpuMs),
        formatMs(b.cpuMs),
        b.cpuMs > 0 ? formatRatio(s.cpuMs / b.cpuMs) : 'n/a',
        String(workers.calls[kind]),
      ]),
    ),
  );
  console.log(
    `  new isolate (${workers.runs} runs), workerd CPU to ready / first request: sandbox ${formatMs(sandbox.ready)} / ${formatMs(sandbox.first)} ms, bare ${formatMs(bare.ready)} / ${formatMs(bare.first)} ms`,
  );
}

/**
 * What a million requests of DEFAULT_MIX cost on Workers Paid, beyond the plan's included usage,
 * from the CPU and Durable Object calls just measured per kind (scripts/bench/workers-cost.mjs).
 */
function printWorkersCost(workers) {
  if (workers.na) return;
  const measured = Object.fromEntries(
    workers.perKind.map(({ kind, sandbox }) => [
      kind,
      {
        cpuMs: sandbox.cpuMs,
        durableObjectCalls: workers.calls[kind],
        rowsWritten: workers.rows[kind].written,
        rowsRead: workers.rows[kind].read,
      },
    ]),
  );
  const mix = DEFAULT_MIX.map(({ kind, share }) => `${Math.round(share * 100)}% ${kind}`).join(', ');
  console.log(`\nWorkers: the cost of a million requests (${mix}) on Workers Paid, beyond the plan's included usage\n`);
  const { lines, total } = costOfMillion(DEFAULT_MIX, measured);
  const quantity = (value) => (value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toPrecision(3));
  console.log(
    table(
      ['line', 'per million requests', 'price', 'cost'],
      [
        ...lines.map((entry) => [
          entry.name,
          `${quantity(entry.quantity)} ${entry.unit}`,
          `$${entry.price} / ${entry.per === 1 ? entry.unit : `million ${entry.unit}`}`,
          `$${entry.cost.toFixed(4)}`,
        ]),
        ['total', '', '', `$${total.toFixed(2)}`],
      ],
    ),
  );
  console.log(
    `  measured per request (workerd CPU includes the Durable Objects', which run in the same process here): ${workers.perKind
      .filter(({ kind }) => DEFAULT_MIX.some((entry) => entry.kind === kind))
      .map(
        ({ kind, sandbox }) =>
          `${kind} ${formatMs(sandbox.cpuMs)} ms CPU, ${workers.calls[kind]} DO calls, ${workers.rows[kind].written} rows written`,
      )
      .join('; ')}`,
  );
  console.log(
    `  The $${INCLUDED.subscription} a month of the plan includes ${INCLUDED.workerRequests / 1e6}M requests, ${INCLUDED.workerCpuMs / 1e6}M CPU ms, ${INCLUDED.durableObjectRequests / 1e6}M Durable Object requests and ${INCLUDED.rowsWritten / 1e6}M rows written. Prices and sources: scripts/bench/workers-cost.mjs, docs/workers.md.`,
  );
}

function printReport(settings, cold, throughput, heap, worker, workers, inProcess) {
  printThroughput(throughput, settings);
  printWorkers(workers);
  printWorkersCost(workers);
  console.log(
    '\nTargets, each a ratio against its bare counterpart in this run (PASS/FAIL are for people: the exit code is 0 either way)\n',
  );
  console.log(
    table(['check', 'target', 'measured: median (min–max)', 'result'], targetRows(throughput, heap, worker, cold, inProcess, workers)),
  );
  console.log('\nStart-up and memory\n');
  console.log(table(['measure', 'value'], otherRows(cold, heap, worker, inProcess)));
}

// ---------------------------------------------------------------------------------------------

/** Every step has its own time limit; this catches anything they miss, with room for a slow machine. */
function startWatchdog({ seconds, rounds, warmup, heapSeconds }) {
  // Four scenarios on two servers, and the create on its reference too.
  const plannedSeconds = (4 * 2 + 1) * (warmup + rounds * seconds) + heapSeconds;
  const limitMs = (2 * plannedSeconds + 600) * 1000;
  setTimeout(() => {
    console.error(`\nbench: still running after ${Math.round(limitMs / 60_000)} minutes; stopping`);
    killAll();
    process.exit(1);
  }, limitMs).unref();
}

/** `--workers-cost`: the Worker built and measured, and the million requests priced; nothing else. */
async function workersCostOnly(settings) {
  console.log('Worker bundle: npm run worker:build');
  const worker = await workerBundleSize(ROOT);
  if (worker.na) throw new Error(`no Worker bundle: ${worker.na}`);
  console.log(`\nWorkers: CPU and Durable Object calls per request (${settings.workerRequests} requests of each kind)`);
  const workers = await measureWorkers(ROOT, { runs: 1, requests: settings.workerRequests });
  if (workers.na) throw new Error(`Workers cannot be measured: ${workers.na}`);
  printWorkers(workers);
  printWorkersCost(workers);
}

async function main() {
  const settings = readSettings();
  if (process.argv.includes('--workers-cost')) {
    await workersCostOnly(settings);
    return;
  }
  requireBuild();
  startWatchdog(settings);
  const load = loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
  console.log(`Waste Operations API sandbox benchmark: Node ${process.version}, ${cpus().length} CPUs, load average ${load}`);
  console.log(
    `${settings.rounds} round(s) x ${settings.seconds} s per scenario and server after ${settings.warmup} s of warm-up, ${CONNECTIONS} connections, 127.0.0.1 only`,
  );

  console.log(
    `\nCold start: spawn of node dist/server.js, and of a bare @hono/node-server app, to first 200 (${settings.coldRuns} runs each)`,
  );
  const cold = await measureColdStarts(settings.coldRuns);

  console.log(
    `\nIn-process: a fresh process imports the package, createSandbox(), first GET; and the same with Hono (${settings.coldRuns} runs each)`,
  );
  const inProcess = await measureInProcess(settings.coldRuns);

  console.log('\nThroughput: sandbox (node dist/server.js, SANDBOX_RATE_LIMIT=off) against the bare baseline');
  const throughput = await measureThroughput(settings);

  console.log('\nHeap: app hosted in a child with --expose-gc (dist/app.js)');
  const createScenario = throughput.scenarios.find((scenario) => scenario.name === 'create');
  const heap = await measureHeap(createScenario, settings.heapSeconds);

  console.log('\nWrites with events and a pinned clock (node dist/server.js, a receiver process on 127.0.0.1)');
  const extras = await measureWriteExtras(createScenario, settings);

  console.log('\nWorker bundle: npm run worker:build');
  const worker = await workerBundleSize(ROOT);
  console.log(worker.na ? `  n/a (${worker.na})` : `  ${worker.files.join(', ')}: gzip ${formatKiB(worker.gzipBytes)}`);

  console.log(
    `\nWorkers: new Miniflare instances on dist/worker and a bare Worker sending the same bytes (${settings.coldRuns} runs each), then per request`,
  );
  const workers = worker.na
    ? { na: 'no Worker bundle' }
    : await measureWorkers(ROOT, { runs: settings.coldRuns, requests: settings.workerRequests });
  if (workers.na) console.log(`  n/a (${workers.na})`);

  printReport(settings, cold, throughput, heap, worker, workers, inProcess);
  printWriteExtras(extras);

  console.log(
    `\nContainer: npm run image, then docker run to the first 200, against a bare Node server in the same image (${settings.coldRuns} runs each), and the image's size`,
  );
  await measureContainer(ROOT, settings.coldRuns);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(`\nbench failed: ${error?.stack ?? error}`);
    killAll();
    process.exit(1);
  },
);
