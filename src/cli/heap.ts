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
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** The old generation may grow 20% past the live heap before V8 collects it. */
export const HEAP_GROWING_PERCENT = 20;

/** Node publishes here as each answer's last byte is handed to the socket (Node 20+). */
const ANSWER_FINISHED = 'http.server.response.finish';

/**
 * Sets both bounds below as the server's first answer goes out, not as it starts. V8 accepts a
 * code cache only when it was made with the flags the process has now, and Node's built-in
 * modules (node:http, undici behind Request and Response, web streams) are compiled from caches
 * made with the default flags: a flag set while the server started made every built-in loaded
 * afterwards compile from source, 20–25 ms of the first answer (docs/operations.md, "Start-up").
 * By the first answer those are loaded. It cannot wait longer: set a second later, under floods
 * that began at once, RSS grew +98 MiB instead of +63, because the old generation had grown.
 */
export function boundHeapAtFirstAnswer(): void {
  const onFinished = () => {
    unsubscribe(ANSWER_FINISHED, onFinished);
    boundHeapGrowth();
    capYoungGeneration();
  };
  subscribe(ANSWER_FINISHED, onFinished);
}

/** Sets the growth, unless the operator chose heap settings of their own (command line or NODE_OPTIONS). */
export function boundHeapGrowth(): void {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  if (given.some((flag) => /^--(heap[-_]growing[-_]percent|max[-_]old[-_]space[-_]size)/.test(flag))) return;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

/**
 * The young generation a server keeps: two semi-spaces of 4 MiB (V8 reports them as 8 MiB).
 * With two of 8 MiB, RSS grew +65 MiB under the soak's floods on Node 24 (three runs: +65.2,
 * +65.3, +65.7, over the bound of 64); with two of 4 MiB, +52.5, at the same throughput.
 */
export const YOUNG_GENERATION_BYTES = 8 * 2 ** 20;

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
  const capped = () => {
    const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    if (young === undefined || young.space_size < YOUNG_GENERATION_BYTES) return false;
    setFlagsFromString('--semi-space-growth-factor=1');
    return true;
  };
  // Start-up may have grown it to the cap already: then at once, or the next scavenge doubles it
  // (set at the first answer and checked only after collections, Node 24 grew +64.5 MiB, not +52.7).
  if (capped()) return;
  const observer = new PerformanceObserver(() => {
    if (capped()) observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
}
