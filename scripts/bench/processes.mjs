// Child processes of the benchmark: every one is tracked so that a normal end, an error or
// Ctrl-C leaves nothing running behind. Only the processes started here are ever signalled.
import { fork, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export const HOST = '127.0.0.1';

/** child -> whether it leads its own process group (then the whole group is killed). */
const children = new Map();

function track(child, { group = false } = {}) {
  children.set(child, group);
  // A group stays listed after its leader exits: a descendant it left behind is swept at the end.
  if (!group) child.once('exit', () => children.delete(child));
  // Keep the last output so a child that dies can say why.
  child.output = '';
  const keep = (chunk) => {
    child.output = (child.output + chunk).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return child;
}

function signal(child, name) {
  try {
    // A group (npm -> wrangler -> esbuild) is killed with its descendants, even once npm is gone.
    if (children.get(child)) process.kill(-child.pid, name);
    else if (child.exitCode === null && child.signalCode === null) child.kill(name);
  } catch {
    // Already gone.
  }
}

export function killAll() {
  for (const child of children.keys()) signal(child, 'SIGKILL');
}

process.once('exit', killAll);
for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(name, () => {
    console.error(`\n${name}: stopping the benchmark's child processes`);
    killAll();
    process.exit(130);
  });
}

export function spawnTracked(command, args, options = {}) {
  const { group = false, ...rest } = options;
  return track(spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: group, ...rest }), { group });
}

export function forkTracked(modulePath, args = [], options = {}) {
  return track(fork(modulePath, args, { stdio: ['ignore', 'pipe', 'pipe', 'ipc'], serialization: 'advanced', ...options }));
}

/** Ends a child politely, then firmly: the sandbox closes its server on SIGTERM. */
export async function stop(child, graceMs = 2000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  signal(child, 'SIGTERM');
  const timer = setTimeout(() => signal(child, 'SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** A port free on loopback right now (the OS picks it; tiny race accepted for a benchmark). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Throws if the child has exited. A server that died mid-run (a crash, or a process outside the
 * bench stopping it on this shared machine) must end the benchmark, not turn into 0 req/s rows.
 */
export function assertRunning(child, what) {
  if (child.exitCode === null && child.signalCode === null) return;
  // The sandbox exits 0 only from its SIGINT/SIGTERM handler, and the bench sends neither mid-run.
  const how =
    child.signalCode ?? (child.exitCode === 0 ? 'code 0 (stopped by a signal from outside the bench?)' : `code ${child.exitCode}`);
  throw new Error(
    `${what} (pid ${child.pid}) exited with ${how} while the bench was using it; last output:\n${child.output.trim() || '(none)'}`,
  );
}

/** The next IPC message of a type, or an error if the child dies or stays silent. */
export function nextMessage(child, type, timeoutMs, what) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`${what}: no "${type}" message after ${timeoutMs} ms`)), timeoutMs);
    const onMessage = (message) => {
      if (message?.type === 'error') finish(new Error(`${what}: ${message.message}`));
      else if (message?.type === type) finish(null, message);
    };
    const onExit = (code, sig) => finish(new Error(`${what} exited (${sig ?? `code ${code}`}):\n${child.output.trim()}`));
    function finish(error, message) {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(message);
    }
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

export { sleep };
