// The sandbox as users run it (`node dist/server.js`), started on a free loopback port.
import { performance } from 'node:perf_hooks';
import { send } from './http.mjs';
import { freePort, HOST, sleep, spawnTracked, stop } from './processes.mjs';
import { PUBLIC_KEY } from './scenarios.mjs';

const POLL_INTERVAL_MS = 5;
const START_DEADLINE_MS = 60_000;

/**
 * `node <script>` (dist/server.js by default) on a free port; `since` is the moment of the spawn.
 * `node` is the binary: this benchmark's own by default, or another version's.
 */
async function spawnSandbox(root, script = 'dist/server.js', extraEnv = {}, node = process.execPath) {
  const port = await freePort();
  const since = performance.now();
  const env = { ...process.env, PORT: String(port), HOST, SANDBOX_RATE_LIMIT: 'off', ...extraEnv };
  const child = spawnTracked(node, [script], { cwd: root, env });
  return { child, port, since };
}

/**
 * Tries `path` until it answers 200 and resolves to the ms since the spawn. Refused connections
 * are expected while the process starts; a process that exits fails at once, with its output.
 */
async function timeToFirstOk({ child, port, since }, path) {
  const headers = path.startsWith('/v1/') ? { Authorization: `Bearer ${PUBLIC_KEY}` } : {};
  let last = 'no answer';
  while (performance.now() - since < START_DEADLINE_MS) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the server exited (${child.signalCode ?? `code ${child.exitCode}`}):\n${child.output.trim()}`);
    }
    try {
      const response = await send(port, { path, headers }, 2000);
      if (response.status === 200) return performance.now() - since;
      last = `status ${response.status}`;
    } catch (error) {
      last = error.code ?? error.message;
    }
    await sleep(POLL_INTERVAL_MS);
  }
  throw new Error(`GET ${path} gave no 200 within ${START_DEADLINE_MS} ms (last: ${last})`);
}

/** The sandbox as the throughput runs use it: started and answering /health. */
export async function startSandbox(root, extraEnv = {}) {
  const sandbox = await spawnSandbox(root, 'dist/server.js', extraEnv);
  await timeToFirstOk(sandbox, '/health');
  return sandbox;
}

/**
 * One cold start: a fresh process on a free port, timed from spawn to the first 200 of `path`.
 * `script` is the sandbox's dist/server.js, or the bare server of the comparison; `node` the
 * binary that runs it.
 */
export async function coldStart(root, path, script = 'dist/server.js', node = process.execPath) {
  const sandbox = await spawnSandbox(root, script, {}, node);
  try {
    return await timeToFirstOk(sandbox, path);
  } finally {
    await stop(sandbox.child);
  }
}
