// The built command (dist/cli.js, built by test/global-build.ts) as a user starts it, for the
// tests that run the README's and the guides' commands against a real server.
import { type ChildProcess, spawn } from 'node:child_process';
import { type AddressInfo, connect, createServer } from 'node:net';

export const CLI = 'dist/cli.js';

export interface RunningServer {
  origin: string;
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  stop(): void;
}

/** Starts `node dist/cli.js <args>` and resolves once it prints where it listens. */
export function startCli(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<RunningServer> {
  return startCommand(process.execPath, [CLI, ...args], env);
}

/** Starts a command that serves the sandbox (the built CLI, an installed bin) and resolves once it prints where it listens. */
export function startCommand(command: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<RunningServer> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 20 s:\n${output}`)), 20_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const origin = output.match(/on (http:\/\/127\.0\.0\.1:\d+)/)?.[1];
      if (origin !== undefined) {
        clearTimeout(timer);
        resolve({ origin, child, output: () => output, stop: () => child.kill('SIGKILL') });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}:\n${output}`));
    });
  });
}

/** A port nobody listens on yet. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts connections on the port (a child that is starting up). */
export async function listening(port: number): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      }).once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nothing listens on port ${port} after 10 s`);
}
