// Where the built server spends its CPU on one benchmarked request: `node --cpu-prof
// dist/server.js` (rate limit off) under autocannon at 50 connections, then the profile's self
// time by file and by function, and the inclusive time of the heaviest call paths.
//
//   npm run build && node scripts/bench/profile.mjs [list|get|error|create] [seconds] [--baseline]
//
// --baseline profiles the bare baseline server instead (scripts/bench/baseline-server.mjs, sent
// the sandbox's own answers), so the two profiles can be read side by side. PROFILE_TOP=<n> lists
// n call paths (default 50).
import { fork, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sender } from './http.mjs';
import { runLoad } from './load.mjs';
import { freePort, HOST, sleep } from './processes.mjs';
import { captureScenarios } from './scenarios.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const baseline = process.argv.includes('--baseline');
const [name = 'create', secondsText = '8'] = process.argv.slice(2).filter((argument) => argument !== '--baseline');
const seconds = Number(secondsText);
const directory = mkdtempSync(join(tmpdir(), 'sandbox-profile-'));
const port = await freePort();
const profileFlags = ['--cpu-prof', `--cpu-prof-dir=${directory}`];
const child = spawn(process.execPath, [...(baseline ? [] : profileFlags), 'dist/server.js'], {
  cwd: root,
  env: { ...process.env, PORT: String(port), HOST, SANDBOX_RATE_LIMIT: 'off' },
  stdio: 'ignore',
});
let profiled = child;
try {
  let scenarios;
  for (let tries = 0; scenarios === undefined; tries++) {
    try {
      scenarios = await captureScenarios(sender(port));
    } catch (error) {
      if (tries > 200) throw error;
      await sleep(50);
    }
  }
  const scenario = scenarios.find((candidate) => candidate.name === name);
  if (scenario === undefined) throw new Error(`no scenario "${name}": ${scenarios.map((candidate) => candidate.name).join(', ')}`);
  let target = port;
  if (baseline) {
    // The sandbox only supplied the answers; the baseline alone is under load and profiled.
    profiled = fork(join(root, 'scripts/bench/baseline-server.mjs'), [], {
      execArgv: profileFlags,
      serialization: 'advanced',
      stdio: 'ignore',
    });
    const ready = new Promise((resolve) => profiled.once('message', resolve));
    profiled.send({ type: 'scenarios', scenarios });
    target = (await ready).port;
    child.kill('SIGTERM');
  }
  await runLoad(target, scenario, 2);
  const load = await runLoad(target, scenario, seconds);
  console.log(
    `${baseline ? 'baseline ' : ''}${name}: ${scenario.method} ${scenario.path}, ${Math.round(load.rps)} req/s over ${seconds} s, profiled`,
  );
} finally {
  for (const server of new Set([child, profiled])) {
    if (server.exitCode !== null || server.signalCode !== null) continue;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    // The baseline exits when its parent disconnects; a signal would end it before --cpu-prof writes.
    if (server === child) server.kill('SIGTERM');
    else server.disconnect();
    await exited;
  }
}

const file = readdirSync(directory).find((entry) => entry.endsWith('.cpuprofile'));
const profile = JSON.parse(readFileSync(join(directory, file), 'utf8'));
rmSync(directory, { recursive: true, force: true });

const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parents = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
const selfTime = new Map();
let total = 0;
profile.samples.forEach((id, index) => {
  const delta = profile.timeDeltas[index] ?? 0;
  selfTime.set(id, (selfTime.get(id) ?? 0) + delta);
  total += delta;
});
const where = ({ url }) => (url === '' ? '(native)' : url.replace(/^.*\/(node_modules\/|dist\/)/, '$1'));
const label = (frame) => `${frame.functionName || '(anonymous)'} ${where(frame)}:${frame.lineNumber + 1}`;
const byFile = new Map();
const byFunction = new Map();
const inclusive = new Map();
for (const [id, time] of selfTime) {
  const frame = nodes.get(id).callFrame;
  byFile.set(where(frame), (byFile.get(where(frame)) ?? 0) + time);
  byFunction.set(label(frame), (byFunction.get(label(frame)) ?? 0) + time);
  const seen = new Set();
  for (let current = id; current !== undefined; current = parents.get(current)) {
    const key = label(nodes.get(current).callFrame);
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + time);
  }
}
const top = (map, count) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, time]) => `  ${((100 * time) / total).toFixed(1).padStart(5)}%  ${key}`)
    .join('\n');
console.log(`\nSelf time by file\n${top(byFile, 12)}`);
console.log(`\nSelf time by function\n${top(byFunction, 30)}`);
console.log(`\nInclusive time\n${top(inclusive, Number(process.env.PROFILE_TOP ?? 50))}`);
