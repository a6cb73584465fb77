// Issues #24 and #25: however the server is started (`npm start`, `node dist/server.js`, the
// bin), one Node process serves, and SIGTERM to the process a CI script holds (`npm start`'s npm,
// or node itself) stops all of it and frees the port. And no V8 flag changes before the first
// answer (docs/operations.md, "Start-up").
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

/** Waits (in bounded steps) until the port accepts connections, without sending a request. */
async function listening(port: number, child: ChildProcess): Promise<void> {
  for (let tries = 0; tries < 600; tries++) {
    if (child.exitCode !== null) throw new Error('the server exited');
    if (await accepts(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nothing listened on ${port}`);
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

describe('the heap bounds are set as the first answer goes out, not at start', () => {
  // V8 rejects the code caches Node's built-ins are compiled from once a flag has changed, so a
  // flag set at start made the first answer compile them from source (docs/operations.md).
  it.each([
    ['node dist/server.js', 'dist/server.js'],
    ['the bin, node dist/cli.js', 'dist/cli.js'],
  ])('%s: no flag while it starts, --heap-growing-percent=20 once after the first answer', async (_, script) => {
    const port = await freePort();
    const child = spawn(process.execPath, ['-r', './test/v8-flags-log.cjs', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PORT: String(port) },
    });
    started.push(child);
    let output = '';
    for (const stream of [child.stdout, child.stderr]) {
      stream?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
    }
    const flagLines = () => output.split('\n').filter((line) => line.startsWith('[v8 flag] '));
    const growthLines = () => flagLines().filter((line) => line === '[v8 flag] --heap-growing-percent=20');

    // The banner comes once the server listens, on the stream the preload writes flags to: a flag
    // set while it started would be in the output before it.
    await listening(port, child);
    const banner = `http://127.0.0.1:${port}`;
    for (let tries = 0; tries < 100 && !output.includes(banner); tries++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(output).toContain(banner);
    expect(flagLines()).toEqual([]);

    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
    for (let tries = 0; tries < 100 && growthLines().length === 0; tries++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(growthLines()).toHaveLength(1);

    // Set once: later answers set nothing else but, at some collection, the young generation's cap.
    for (let request = 0; request < 20; request++) {
      expect((await fetch(`http://127.0.0.1:${port}/v1/jobs?limit=1`)).status).toBe(401);
    }
    expect(growthLines()).toHaveLength(1);
    const others = flagLines().filter((line) => line !== '[v8 flag] --heap-growing-percent=20');
    expect(others.every((line) => line === '[v8 flag] --semi-space-growth-factor=1')).toBe(true);
    expect(others.length).toBeLessThanOrEqual(1);
  });
});
