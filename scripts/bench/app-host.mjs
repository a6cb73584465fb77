// Child process (run with --expose-gc): hosts the sandbox app itself, so it can report its heap
// after a full gc, which `node dist/server.js` cannot. Measures the heap before and after the
// sample data is loaded, then serves the app on loopback for the idempotency-store run.
// Protocol: child sends {type:'ready', port, heapBeforeLoad, heapAfterLoad}; parent sends
// {type:'heap'} and the child answers {type:'heap', heapUsed, keyed, distinctKeys, replayed}.
import { serve } from '@hono/node-server';
import { COLLECTIONS, createApp, readConfig } from '../../dist/app.js';

const KEY_PREFIX = process.argv[2] ?? 'bench-';

/**
 * Memory in use once garbage is gone: a few gc passes, letting finalizers run between them. The
 * JS heap plus ArrayBuffers: the sample records are kept as encoded bytes, which live outside
 * the JS heap, and leaving them out would hide most of the sample data.
 */
async function heapAfterGc() {
  for (let pass = 0; pass < 3; pass++) {
    globalThis.gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

/**
 * Distinct idempotency keys as the server saw them. Keys are `${KEY_PREFIX}${n}`, so a bitmap
 * over n counts them exactly in a few KiB: a Set of 100k+ strings would weigh on the very heap
 * being measured.
 */
class KeyCounter {
  bits = new Uint8Array(1024);
  distinct = 0;

  see(key) {
    const n = key.startsWith(KEY_PREFIX) ? Number(key.slice(KEY_PREFIX.length)) : NaN;
    // Anything else stays out of the count, so "distinct of keyed" shows it.
    if (!Number.isSafeInteger(n) || n < 0) return;
    const byte = n >> 3;
    while (byte >= this.bits.length) {
      const grown = new Uint8Array(this.bits.length * 2);
      grown.set(this.bits);
      this.bits = grown;
    }
    const mask = 1 << (n & 7);
    if ((this.bits[byte] & mask) === 0) {
      this.bits[byte] |= mask;
      this.distinct++;
    }
  }
}

async function main() {
  const heapBeforeLoad = await heapAfterGc();
  // Rate limiting off, as for the throughput runs: the store, not the limiter, is under test.
  const app = createApp(readConfig({ SANDBOX_SEED: process.env.SANDBOX_SEED, SANDBOX_RATE_LIMIT: 'off' }), {
    clientAddress: () => '127.0.0.1',
  });
  // A request to every list in both accounts, so that everything generated or parsed on first
  // use (the prebuilt lists are parsed when first read) is in the figure too.
  for (const key of ['svc_test_sandbox_public', 'svc_test_sandbox_other']) {
    for (const list of COLLECTIONS) {
      const probe = await app.request(`/v1/${list}?limit=1`, { headers: { Authorization: `Bearer ${key}` } });
      if (probe.status !== 200) throw new Error(`GET /v1/${list}?limit=1 answered ${probe.status}: ${await probe.text()}`);
      await probe.arrayBuffer();
    }
  }
  const heapAfterLoad = await heapAfterGc();

  const keys = new KeyCounter();
  let keyed = 0;
  let replayed = 0;
  const fetch = async (request, env) => {
    const key = request.headers.get('Idempotency-Key');
    if (key !== null) {
      keyed++;
      keys.see(key);
    }
    const response = await app.fetch(request, env);
    if (response.headers.has('Idempotent-Replayed')) replayed++;
    return response;
  };

  process.on('message', async (message) => {
    if (message?.type !== 'heap') return;
    const heapUsed = await heapAfterGc();
    process.send({ type: 'heap', heapUsed, keyed, distinctKeys: keys.distinct, replayed });
  });
  serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
    process.send({ type: 'ready', port: info.port, heapBeforeLoad, heapAfterLoad });
  });
}

process.on('disconnect', () => process.exit(0));
main().catch((error) => {
  process.send({ type: 'error', message: String(error?.stack ?? error) }, () => process.exit(1));
});
