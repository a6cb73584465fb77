// Issues #24 and #25: however the server is started (`npm start`, `node dist/server.js`, the
// bin), one Node process serves, and SIGTERM to the process a CI script holds (`npm start`'s npm,
// or node itself) stops all of it and frees the port.
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from './cli-server.js';

const started: ChildProcess[] = [];

afterEach(() => {
  for (const child of started.splice(0)) {
    for (const pid of [...descendants(child.pid as number), child.pid as number]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
});

/** Every process started by `pid`, at any depth (Linux /proc). */
function descendants(pid: number): number[] {
  const found: number[] = [];
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

/** The program a process runs, by its command line's first word. */
function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? '';
  } catch {
    return '';
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
};

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    }).once('error', () => resolve(false));
  });
}

/** Starts a command on a free port and resolves once it answers /health. */
async function startServer(command: string, args: readonly string[]): Promise<{ child: ChildProcess; port: number; output: () => string }> {
  const port = await freePort();
  // No npm_* variables of the test runner's own npm: `npm start` runs as from a shell.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('npm_')));
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...env, PORT: String(port) } });
  started.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  // Bounded by tries, not time.
  for (let tries = 0; tries < 600; tries++) {
    if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited:\n${output}`);
    const answer = await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined);
    if (answer?.status === 200) return { child, port, output: () => output };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${command} ${args.join(' ')} never answered /health:\n${output}`);
}

/** Waits (in bounded steps) until none of the processes is alive. */
async function gone(pids: readonly number[]): Promise<boolean> {
  for (let tries = 0; tries < 100; tries++) {
    if (!pids.some(alive)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

describe('one process, whichever way the server is started', () => {
  it.each([
    ['node dist/server.js', ['dist/server.js']],
    ['the bin, node dist/cli.js', ['dist/cli.js']],
  ])('%s serves from the process started, with no child process', async (_, args) => {
    const { child } = await startServer(process.execPath, args);
    expect(descendants(child.pid as number)).toEqual([]);
  });

  it('npm start runs one Node process below npm, and SIGTERM to npm stops it and frees the port', async () => {
    // --ignore-scripts: npm's own start, without the prestart build (no test rebuilds dist/).
    const { child, port } = await startServer('npm', ['start', '--silent', '--ignore-scripts']);
    const below = descendants(child.pid as number);
    // npm may run the script through a shell that stays (sh -c) or execs node; one node either way.
    expect(below.filter((pid) => /(^|\/)node$/.test(commandOf(pid)))).toHaveLength(1);
    child.kill('SIGTERM');
    expect(await gone([child.pid as number, ...below])).toBe(true);
    expect(await accepts(port)).toBe(false);
  });

  it('SIGTERM to node dist/server.js stops it and frees the port', async () => {
    const { child, port } = await startServer(process.execPath, ['dist/server.js']);
    child.kill('SIGTERM');
    expect(await gone([child.pid as number])).toBe(true);
    const [code] = child.exitCode === null ? await once(child, 'exit') : [child.exitCode];
    expect(code).toBe(0);
    expect(await accepts(port)).toBe(false);
  });
});
