// The `waste-operations-sandbox` command (package.json "bin" → dist/cli.js), and `node
// dist/server.js` (src/server.ts imports this file). One process however it is started, its
// memory bounded under floods (docs/operations.md, "Memory bounds").
import { readFileSync } from 'node:fs';
import module from 'node:module';
import { boundHeapAtFirstAnswer } from './heap.js';

// The heap's bounds are set at run time: no flags to pass, no second start of Node. They are set
// as the first answer goes out, so that no flag changes while start-up loads Node's built-ins
// (src/cli/heap.ts).
boundHeapAtFirstAnswer();

// Node 22.1+ keeps the compiled bundles on disk, so a second start skips most of the compiling
// (the start-up a CI job pays on every run). Node 20 has no compile cache: nothing to enable.
// NODE_DISABLE_COMPILE_CACHE=1 turns it off, as for any Node program.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

/**
 * Under an npm script (`npm start`, `npx waste-operations-sandbox`), npm runs this process through
 * `sh -c`, and a SIGTERM to npm (how a CI script stops a server it started in the background:
 * `kill $PID`) ends npm and the shell but never reaches this process, which would go on serving
 * with its port taken. So here, the end of that shell is taken as the SIGTERM it could not pass
 * on, and the server stops as it does on SIGTERM. Only when the parent is the shell running npm's
 * script itself: its `-c` text is the script (npm_lifecycle_script), or the script, a space and
 * the arguments npm appended (`npm start -- --port 9000` runs `node dist/server.js --port 9000`;
 * `npx waste-operations-sandbox --port 9000` runs `'waste-operations-sandbox' --port 9000`). A
 * server started in the background of any other shell (`node dist/cli.js &`, a CI step) must
 * outlive it. Linux only (/proc); elsewhere the server stays as it was.
 */
function endWithNpm(): void {
  const script = process.env.npm_lifecycle_script;
  if (script === undefined) return;
  let parentCommand: string[];
  try {
    parentCommand = readFileSync(`/proc/${process.ppid}/cmdline`, 'utf8').split('\0');
  } catch {
    return;
  }
  const option = parentCommand.indexOf('-c');
  const shellText = option === -1 ? undefined : parentCommand[option + 1];
  if (shellText !== script && !shellText?.startsWith(`${script} `)) return;
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    process.kill(process.pid, 'SIGTERM');
  }, PARENT_CHECK_MS);
  watch.unref();
}

/** How often the parent is checked: a stopped npm frees the port well within 2 s. */
const PARENT_CHECK_MS = 200;

endWithNpm();

// Imported only now, so that the cache above applies to the whole program.
const { main } = await import('./main.js');
main(process.argv.slice(2)).then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
