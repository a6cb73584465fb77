// Issues #24 and #25: however the server is started (`npm start`, `node dist/server.js`, the
// bin), one Node process serves. Issue #34: SIGTERM to the process a CI script holds stops all of
// it and frees the port, for every way of starting a guide shows: `npm start`, `npm start --
// <flags>`, `npx waste-operations-sandbox <flags>` from the packed tarball, the installed bin,
// `node dist/server.js` and the action's server; a server started in the background of another
// shell outlives that shell. And no V8 flag changes before the first answer (docs/operations.md,
// "Start-up").
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { action, runAction, type Step } from './action-runner.js';
import { freePort } from './cli-server.js';
import { installPacked, packedPackage } from './packed-package.js';

const run = promisify(execFile);

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

/** The environment of a shell, without the npm_* variables of the test runner's own npm. */
function shellEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('npm_')));
}

/** Resolves once the server on the port answers /health; fails if the process it was started as ends first. */
async function healthy(port: number, running: () => boolean, output: () => string): Promise<void> {
  // Bounded by tries, not time.
  for (let tries = 0; tries < 600; tries++) {
    if (!running()) throw new Error(`exited before answering /health:\n${output()}`);
    const answer = await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined);
    if (answer?.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`never answered /health on ${port}:\n${output()}`);
}

/**
 * Starts a command as a CI script does and resolves once it answers /health. The port goes by
 * PORT, unless `args` is a function of the port (the flags form).
 */
async function startServer(
  command: string,
  args: readonly string[] | ((port: number) => readonly string[]),
  { cwd }: { cwd?: string } = {},
): Promise<{ child: ChildProcess; port: number; output: () => string }> {
  const port = await freePort();
  const env = typeof args === 'function' ? shellEnvironment() : { ...shellEnvironment(), PORT: String(port) };
  const argv = typeof args === 'function' ? args(port) : args;
  const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'], env, ...(cwd === undefined ? {} : { cwd }) });
  started.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  await healthy(
    port,
    () => child.exitCode === null && child.signalCode === null,
    () => `${command} ${argv.join(' ')}: ${output}`,
  );
  return { child, port, output: () => output };
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

  it('npm start runs one Node process below npm', async () => {
    // --ignore-scripts: npm's own start, without the prestart build (no test rebuilds dist/).
    const { child } = await startServer('npm', ['start', '--silent', '--ignore-scripts']);
    const below = descendants(child.pid as number);
    // npm may run the script through a shell that stays (sh -c) or execs node; one node either way.
    expect(below.filter((pid) => /(^|\/)node$/.test(commandOf(pid)))).toHaveLength(1);
  });
});

/** The packed tarball installed in a project of its own, as a user installs it; once for the file. */
let installed: Promise<string> | undefined;
function installedProject(): Promise<string> {
  installed ??= packedPackage().then(({ tarball }) => installPacked(tarball));
  return installed;
}

/** Servers this file started that are not its children (the action's, one in the background). */
const detached: number[] = [];
/** Folders this file made. */
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

afterEach(() => {
  for (const pid of detached.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
});

/**
 * The action's start step, run as a runner runs it, over a build step's folder holding this
 * checkout's dist/ (built by the global setup; test/action.test.ts runs the build step itself).
 */
async function startActionServer(): Promise<{ held: number; port: number }> {
  const runnerTemp = mkdtempSync(join(tmpdir(), 'waste-ops-stop-'));
  folders.push(runnerTemp);
  const dir = mkdtempSync(join(runnerTemp, 'waste-operations-sandbox-'));
  symlinkSync(join(process.cwd(), 'dist'), join(dir, 'dist'), 'dir');
  const port = await freePort();
  const startStep = action.runs.steps.find((step) => step.id === 'start') as Step;
  const { outputs } = await runAction({ port: String(port) }, runnerTemp, { steps: [startStep], earlier: { build: { dir } } });
  const held = Number(outputs.pid);
  detached.push(held);
  return { held, port };
}

/** Resolves once the port refuses connections; false if it still accepts after 30 s of tries. */
async function portFreed(port: number): Promise<boolean> {
  for (let tries = 0; tries < 300; tries++) {
    if (!(await accepts(port))) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

describe('SIGTERM to the process a CI script holds stops the whole server and frees its port', () => {
  const spawned =
    (command: () => Promise<[string, readonly string[] | ((port: number) => readonly string[]), string?]>) =>
    async (): Promise<{ held: number; port: number; child: ChildProcess }> => {
      const [program, args, cwd] = await command();
      const { child, port } = await startServer(program, args, cwd === undefined ? {} : { cwd });
      return { held: child.pid as number, port, child };
    };
  const ways: [string, () => Promise<{ held: number; port: number; child?: ChildProcess }>][] = [
    // --ignore-scripts: npm's own start, without the prestart build (no test rebuilds dist/).
    ['npm start', spawned(async () => ['npm', ['start', '--silent', '--ignore-scripts']])],
    [
      'npm start -- --port N',
      spawned(async () => ['npm', (port) => ['start', '--silent', '--ignore-scripts', '--', '--port', String(port)]]),
    ],
    [
      'npx waste-operations-sandbox --port N, from the packed tarball',
      spawned(async () => ['npx', (port) => ['waste-operations-sandbox', '--port', String(port)], await installedProject()]),
    ],
    [
      'the installed bin, node_modules/.bin/waste-operations-sandbox --port N',
      spawned(async () => [
        join(await installedProject(), 'node_modules', '.bin', 'waste-operations-sandbox'),
        (port) => ['--port', String(port)],
      ]),
    ],
    ['node dist/server.js', spawned(async () => [process.execPath, ['dist/server.js']])],
    ["the action's server (kill <the pid output>)", startActionServer],
  ];

  it.each(ways)(
    '%s',
    async (_, start) => {
      const { held, port, child } = await start();
      const processes = [held, ...descendants(held)];
      // Ended in any case: one that outlives its parent is no longer found below the child.
      detached.push(...processes);
      process.kill(held, 'SIGTERM');
      expect(await portFreed(port), `port ${port} still accepts connections`).toBe(true);
      expect(await gone(processes), `still running: ${processes.filter(alive).map(commandOf).join(', ')}`).toBe(true);
      // A server that is the process held ends as on any stop: status 0.
      if (child !== undefined && processes.length === 1) {
        const [code] = child.exitCode === null ? await once(child, 'exit') : [child.exitCode];
        expect(code).toBe(0);
      }
    },
    180_000,
  );

  it('a server started in the background of a script that an npm script runs outlives that script', async () => {
    const project = mkdtempSync(join(tmpdir(), 'waste-ops-background-'));
    folders.push(project);
    const port = await freePort();
    writeFileSync(
      join(project, 'ci.sh'),
      `node ${join(process.cwd(), 'dist', 'cli.js')} --port ${port} > server.log 2>&1 &\necho $! > server.pid\n`,
    );
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'ci', private: true, scripts: { ci: 'sh ./ci.sh' } }));
    await run('npm', ['run', '--silent', 'ci'], { cwd: project, env: shellEnvironment() });
    const pid = Number(readFileSync(join(project, 'server.pid'), 'utf8'));
    detached.push(pid);
    await healthy(
      port,
      () => alive(pid),
      () => readFileSync(join(project, 'server.log'), 'utf8'),
    );
    // npm and the script's shell have ended; the server answers on, well past several checks of its parent.
    for (let answers = 0; answers < 10; answers++) {
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(alive(pid)).toBe(true);
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
