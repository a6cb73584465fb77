// The `waste-operations-sandbox` command (package.json "bin" → dist/cli.js), and `node
// dist/server.js` (src/server.ts imports this file).
//
// Memory (issue #18): under floods (~5,000 requests/s, 600 KB bodies among them) RSS grew
// +113 MiB in 30 s with `--max-semi-space-size=8` alone. What holds it within +64 MiB at the
// same throughput: a young generation of 2 × 8 MiB rather than 2 × 16, an old generation capped
// at 160 MiB (V8 then collects it before it balloons; the live heap is ~20 MiB, ~50 with every
// store at its bound), and glibc returning freed buffers of 128 KiB and more to the system at
// once (its threshold otherwise rises to 32 MiB and freed request bodies stay resident). V8
// reads these flags only when the process starts (v8.setFlagsFromString afterwards changes
// nothing) and glibc its variable, so a server started without them (`node dist/server.js`,
// `npm start`, the bin, npx) starts itself again with them: a child process serves, with the
// parent's stdio, its signals forwarded and its exit code passed back. Measured cost: see the
// README's "Memory bounds".
import { type ChildProcess, spawn } from 'node:child_process';

/** The V8 flags a server runs with, unless the command line or NODE_OPTIONS sets them. */
const SERVER_V8_FLAGS = ['--max-semi-space-size=8', '--max-old-space-size=160'];
/** glibc's malloc: mmap (and so unmap on free) every buffer of 128 KiB or more. */
const SERVER_MALLOC_ENV = { MALLOC_MMAP_THRESHOLD_: '131072' };
/** Set in the process started again, so it never starts itself once more. */
const STARTED_AGAIN = 'WASTE_OPERATIONS_SANDBOX_V8_FLAGS';

/** Whether this command line starts a server that runs with V8's default young generation. */
function startsServerWithV8Defaults(argv: readonly string[]): boolean {
  if (process.env[STARTED_AGAIN] !== undefined) return false;
  // Only the built command: `tsx src/server.ts` (npm run dev) runs under a loader of its own.
  if (!import.meta.url.endsWith('.js')) return false;
  const [command] = argv;
  if (command === 'trigger' || command === 'help' || argv.some((arg) => /^(--help|-h|--version|-v)$/.test(arg))) return false;
  const nodeFlags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  // A debugger's port cannot be bound twice: with --inspect the server stays as it was started.
  if (nodeFlags.some((flag) => flag.startsWith('--inspect'))) return false;
  // Flags of the operator's own win: then nothing is added.
  return !nodeFlags.some((flag) => /^--max-(semi|old)-space-size/.test(flag));
}

function startAgain(argv: readonly string[]): void {
  const args = [...process.execArgv, ...SERVER_V8_FLAGS, process.argv[1] ?? '', ...argv];
  const env = { ...SERVER_MALLOC_ENV, ...process.env, [STARTED_AGAIN]: SERVER_V8_FLAGS.join(' ') };
  // An IPC channel that only tells the child when this process is gone, even by SIGKILL.
  const child = spawn(process.execPath, args, { stdio: ['inherit', 'inherit', 'inherit', 'ipc'], env });
  forwardSignals(child);
  child.on('error', (error) => {
    console.error(`Could not start the server: ${error.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    if (signal === null) process.exit(code ?? 1);
    // Ended by a signal: end the same way, so the caller sees what a direct start would show.
    for (const name of FORWARDED) process.removeAllListeners(name);
    process.kill(process.pid, signal);
  });
}

const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function forwardSignals(child: ChildProcess): void {
  for (const name of FORWARDED) process.on(name, () => child.kill(name));
}

/** In the child of startAgain: ends when the process that started it is gone. */
function endWithParent(): void {
  if (process.env[STARTED_AGAIN] === undefined || process.channel === undefined) return;
  process.channel.unref();
  process.on('disconnect', () => process.exit(0));
}

const argv = process.argv.slice(2);
if (startsServerWithV8Defaults(argv)) {
  startAgain(argv);
} else {
  endWithParent();
  const { main } = await import('./main.js');
  main(argv).then(
    (code) => {
      if (code !== undefined) process.exitCode = code;
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
