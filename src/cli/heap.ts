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
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** The old generation may grow 20% past the live heap before V8 collects it. */
export const HEAP_GROWING_PERCENT = 20;

/** Sets the growth, unless the operator chose heap settings of their own (command line or NODE_OPTIONS). */
export function boundHeapGrowth(): void {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  if (given.some((flag) => /^--(heap[-_]growing[-_]percent|max[-_]old[-_]space[-_]size)/.test(flag))) return;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

/** The young generation a server keeps: two semi-spaces of 8 MiB (V8 reports them as 16 MiB). */
export const YOUNG_GENERATION_BYTES = 16 * 2 ** 20;

/**
 * Stops V8's young generation from growing past YOUNG_GENERATION_BYTES. V8 lets it grow to
 * 2 × 16 MiB on Node 20 and 22 and to 2 × 64 MiB on Node 24, doubling it at a scavenge that
 * finds much alive, and most of that growth is what a flood adds to memory. Its largest size
 * (`--max-semi-space-size`) is read only as a process starts, but the factor of each growth
 * (`--semi-space-growth-factor`) is read at each growth: so after each collection, once the
 * young generation has reached the cap, the factor becomes 1 and it grows no more. No second
 * start of Node, on every version. Never when the operator set the young generation's size.
 */
export function capYoungGeneration(): void {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  if (given.some((flag) => /^--(max[-_]semi[-_]space[-_]size|semi[-_]space[-_]growth[-_]factor)/.test(flag))) return;
  const observer = new PerformanceObserver(() => {
    const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    if (young === undefined || young.space_size < YOUNG_GENERATION_BYTES) return;
    setFlagsFromString('--semi-space-growth-factor=1');
    observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
}
