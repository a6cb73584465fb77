// The V8 heap settings the server runs with, so that floods leave memory within its bound
// (docs/operations.md, "Memory bounds").
//
// How far V8 lets the old generation grow between full collections. By default, under a high
// allocation rate, up to 4 times the live heap: a server with ~30 MiB live (sample data, the
// idempotency store and the page cache at their bounds) swelled past 120 MiB under floods, all
// of it garbage waiting for a collection. Entries evicted from the bounded stores are exactly
// that garbage: they lived long enough to be promoted. This flag is read at each collection, so
// unlike the heap's sizes it can be set once the process runs: one process, no flags to pass.
// Its cost is more full collections under sustained writes (docs/operations.md, "Memory bounds").
import { setFlagsFromString } from 'node:v8';

/** The old generation may grow 20% past the live heap before V8 collects it. */
export const HEAP_GROWING_PERCENT = 20;

/** Sets the growth, unless the operator chose heap settings of their own (command line or NODE_OPTIONS). */
export function boundHeapGrowth(): void {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  if (given.some((flag) => /^--(heap[-_]growing[-_]percent|max[-_]old[-_]space[-_]size)/.test(flag))) return;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

/** The young generation a server gets where it can start again in place: two semi-spaces of 8 MiB. */
const SEMI_SPACE_MIB = 8;

/**
 * The flag a server starts again with, in place (process.execve, Node 22.15+ and 24): V8's young
 * generation grows to 2 × 16 MiB on Node 20 and 22 and to 2 × 64 MiB on Node 24, and its size can
 * be set only as a process starts. Node 20 has no execve and stays as started (its floods stay
 * within the bound with the growth set above, with less room). Only for a server (not `trigger`,
 * `--help`, `--version`), only in the built program (`tsx` runs under a loader of its own), and
 * never when the operator set the size, or a debugger whose port cannot be bound twice.
 */
export function youngGenerationFlag(argv: readonly string[], moduleUrl: string): string | undefined {
  if (!moduleUrl.endsWith('.js') || typeof (process as { execve?: unknown }).execve !== 'function') return undefined;
  const [command] = argv;
  if (command === 'trigger' || command === 'help' || argv.some((arg) => /^(--help|-h|--version|-v)$/.test(arg))) return undefined;
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  if (given.some((flag) => /^--(max[-_]semi[-_]space[-_]size|inspect)/.test(flag))) return undefined;
  return `--max-semi-space-size=${SEMI_SPACE_MIB}`;
}
