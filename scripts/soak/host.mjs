// Child process of the soak (run with --expose-gc): serves the built app on loopback with the
// same server the CLI starts (startNodeServer), and reports its memory over IPC, which
// `node dist/server.js` cannot: heap after a forced gc, RSS, and the size of each bounded store.
// Protocol: child sends {type:'ready', port}; parent sends {type:'memory'} and gets
// {type:'memory', heap, rss, idempotency: {entries, bytes}, buckets}.
import { readFileSync } from 'node:fs';
import {
  boundHeapGrowth,
  capYoungGeneration,
  createApp,
  MemoryIdempotencyStore,
  readConfig,
  socketAddress,
  startNodeServer,
  TokenBucketLimiter,
} from '../../dist/soak-app.js';

// The bounds every entry point sets (src/cli/heap.ts). They set them at their first answer, to
// keep start-up fast; here, where only memory is measured, they are set at once, before any load.
boundHeapGrowth();
capYoungGeneration();
const options = JSON.parse(process.argv[2] ?? '{}');

/** The JS heap plus ArrayBuffers (sample records are kept as encoded bytes) after full gcs. */
async function heapAfterGc() {
  for (let pass = 0; pass < 3; pass++) {
    globalThis.gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

/** Resident set size as the kernel counts it (VmRSS), in bytes. */
function rss() {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return match ? Number(match[1]) * 1024 : process.memoryUsage().rss;
}

const config = readConfig({ SANDBOX_RATE_LIMIT: String(options.rateLimit), SANDBOX_KEYS: JSON.stringify(options.keys) });
// The stores as the CLI makes them (default bounds), except the idempotency TTL: 24 hours would
// outlast any soak, so the soak shortens it to see memory return once entries expire.
const idempotency = new MemoryIdempotencyStore({ ttlMs: options.idempotencyTtlMs });
const rateLimiter = new TokenBucketLimiter({ perSecond: options.rateLimit });
const app = createApp(config, { idempotency, rateLimiter, clientAddress: socketAddress });

process.on('message', async (message) => {
  if (message?.type !== 'memory') return;
  const heap = await heapAfterGc();
  process.send({
    type: 'memory',
    heap,
    rss: rss(),
    idempotency: { entries: idempotency.size, bytes: idempotency.bytes },
    buckets: rateLimiter.size,
  });
});
process.on('disconnect', () => process.exit(0));

// SOAK_TRACE=<file>: every second, one JSON line of where memory is (RSS, V8's spaces, buffers),
// without a forced gc: for finding what grows RSS under floods.
if (process.env.SOAK_TRACE) {
  const { appendFileSync } = await import('node:fs');
  const { getHeapSpaceStatistics } = await import('node:v8');
  const began = Date.now();
  setInterval(() => {
    const usage = process.memoryUsage();
    const spaces = Object.fromEntries(getHeapSpaceStatistics().map((space) => [space.space_name, Math.round(space.space_size / 1048576)]));
    const line = {
      s: Math.round((Date.now() - began) / 1000),
      rss: Math.round(rss() / 1048576),
      heapUsed: Math.round(usage.heapUsed / 1048576),
      external: Math.round(usage.external / 1048576),
      arrayBuffers: Math.round(usage.arrayBuffers / 1048576),
      spaces,
    };
    appendFileSync(process.env.SOAK_TRACE, `${JSON.stringify(line)}\n`);
  }, 1000).unref();
}

const server = startNodeServer(app.fetch, { port: 0, hostname: '127.0.0.1' }, (info) => {
  process.send({ type: 'ready', port: info.port });
});
server.on('error', (error) => process.send({ type: 'error', message: String(error) }));
