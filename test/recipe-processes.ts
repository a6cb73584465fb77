// The guides' command lines run as a reader runs them (test/events-guide.test.ts,
// test/retries-guide.test.ts): each in its own process group, its output collected, all ended at
// once when the file is done (npm start runs the server as its child, so the whole group goes).
import { type ChildProcess, spawn } from 'node:child_process';

export interface RecipeProcesses {
  /** Starts a line in the background; resolves once `ready` shows in its output (at once without it). */
  background(command: string, cwd: string, ready?: RegExp): Promise<() => string>;
  /** Ends every process group started, those still running. */
  stopAll(): void;
}

export function recipeProcesses(): RecipeProcesses {
  const children: ChildProcess[] = [];
  return {
    background(command, cwd, ready) {
      const child = spawn('sh', ['-c', command], { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      children.push(child);
      let output = '';
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${command}: nothing like ${ready} within 30 s:\n${output}`)), 30_000);
        const read = (chunk: Buffer) => {
          output += chunk.toString();
          if (ready?.test(output)) {
            clearTimeout(timer);
            resolve(() => output);
          }
        };
        child.stdout?.on('data', read);
        child.stderr?.on('data', read);
        if (ready === undefined) {
          clearTimeout(timer);
          resolve(() => output);
        }
      });
    },
    stopAll() {
      for (const child of children) if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
    },
  };
}

/** Waits until `condition` holds, asking every 50 ms; fails after `tries` asks, naming `what`. */
export async function until(condition: () => boolean, what: string, tries = 200): Promise<void> {
  for (let n = 0; n < tries; n++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what}: not within ${tries * 50} ms`);
}
