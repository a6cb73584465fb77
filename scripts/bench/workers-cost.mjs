// What a million requests cost on Cloudflare Workers: the measured CPU and Durable Object calls per
// kind of request (scripts/bench/workers.mjs), a mix of kinds, and Cloudflare's published prices for
// the Workers Paid plan (Standard usage model). Each price is the charge beyond the plan's included
// usage, so the figure is what one more million requests adds to a bill that has used its
// allowance; the first 10 million requests a month come with the $5 subscription (INCLUDED below).

/** Prices in US dollars, read 2026-11-28. */
export const PRICES = {
  /** https://developers.cloudflare.com/workers/platform/pricing/ : "+$0.30 per additional million" requests. */
  workerRequestsPerMillion: 0.3,
  /** The same page: "+$0.02 per additional million CPU milliseconds". */
  workerCpuPerMillionMs: 0.02,
  /** https://developers.cloudflare.com/durable-objects/platform/pricing/ : requests "+ $0.15/million" (each RPC call is one). */
  durableObjectRequestsPerMillion: 0.15,
  /** The same page: duration "+ $12.50/million GB-s", wall-clock time while an object is active. */
  durableObjectPerMillionGbS: 12.5,
  /** The same page, SQLite storage backend: rows written "+ $1.00 / million rows" (a setAlarm() and a delete are rows written). */
  rowsWrittenPerMillion: 1.0,
  /** The same page: rows read "+ $0.001 / million rows". */
  rowsReadPerMillion: 0.001,
  /** The same page: SQL stored data "+ $0.20/ GB-month". */
  storedPerGbMonth: 0.2,
};

/** What the $5 a month of the Workers Paid plan includes (the same pages). */
export const INCLUDED = {
  subscription: 5,
  workerRequests: 10_000_000,
  workerCpuMs: 30_000_000,
  durableObjectRequests: 1_000_000,
  durableObjectGbS: 400_000,
  rowsWritten: 50_000_000,
  rowsRead: 25_000_000_000,
  storedGbMonth: 5,
};

/** Duration is billed for the 128 MB an object is given, whatever it uses (the DO pricing page). */
export const DURABLE_OBJECT_GB = 128 / 1024;

/**
 * Wall time an object is active per call. Not measurable locally (workerd's clocks stand still
 * while code runs); a call here is one synchronous SQLite statement or a token count, well under a
 * millisecond of work, so 5 ms, network included, is a generous bound: even so, duration is the
 * smallest line of the bill.
 */
export const ACTIVE_MS_PER_CALL = 5;

/** Seconds in the month the storage price is per (30 days). */
const SECONDS_PER_MONTH = 30 * 24 * 3600;

/**
 * What a kind of request leaves to happen later, read from the code path
 * (src/worker/idempotency-object.ts); reads and creates without a key leave nothing (the rate
 * limit's bucket lives in memory: src/worker/rate-limit-object.ts). A keyed create's object:
 * - 24 hours on, its alarm runs (1 more Durable Object request), reads the row and deleteAll()
 *   deletes it (a delete is a row written);
 * - meanwhile it keeps the stored answer (about 0.4 KB for a job) in a SQLite database of its own,
 *   about 12 KB even when nearly empty (Cloudflare's Durable Objects FAQ), for 24 hours.
 * What happens during the request (its calls, its rows) is measured: scripts/bench/workers.mjs.
 */
export const LATER = {
  'create, Idempotency-Key': { requests: 1, rowsWritten: 1, rowsRead: 1, storedBytes: 12 * 1024 + 400, storedSeconds: 24 * 3600 },
};

/** The mix priced by `npm run bench`: mostly reads, as an API's traffic is. Shares add up to 1. */
export const DEFAULT_MIX = [
  { kind: 'list', share: 0.35 },
  { kind: 'get', share: 0.35 },
  { kind: 'create', share: 0.2 },
  { kind: 'create, Idempotency-Key', share: 0.1 },
];

/**
 * The cost of a million requests of `mix`, from `measured[kind] = { cpuMs, durableObjectCalls,
 * rowsWritten, rowsRead }` (per request). Returns each line of the bill (its quantity per million requests, the price, the
 * cost) and the total, in dollars.
 */
export function costOfMillion(mix, measured, { activeMsPerCall = ACTIVE_MS_PER_CALL } = {}) {
  const shareTotal = mix.reduce((sum, entry) => sum + entry.share, 0);
  if (Math.abs(shareTotal - 1) > 1e-9) throw new Error(`the shares of the mix add up to ${shareTotal}, not 1`);
  const per = { cpuMs: 0, durableObjectRequests: 0, durableObjectGbS: 0, rowsWritten: 0, rowsRead: 0, storedGbMonth: 0 };
  for (const { kind, share } of mix) {
    const figures = measured[kind];
    if (figures === undefined) throw new Error(`no measurement of ${kind}`);
    const later = LATER[kind] ?? { requests: 0, rowsWritten: 0, rowsRead: 0, storedBytes: 0, storedSeconds: 0 };
    const calls = figures.durableObjectCalls + later.requests;
    per.cpuMs += share * figures.cpuMs;
    per.durableObjectRequests += share * calls;
    per.durableObjectGbS += share * calls * (activeMsPerCall / 1000) * DURABLE_OBJECT_GB;
    per.rowsWritten += share * (figures.rowsWritten + later.rowsWritten);
    per.rowsRead += share * (figures.rowsRead + later.rowsRead);
    per.storedGbMonth += share * (later.storedBytes / 1e9) * (later.storedSeconds / SECONDS_PER_MONTH);
  }
  const million = 1_000_000;
  const lines = [
    line('Worker requests', million, 'requests', PRICES.workerRequestsPerMillion, million),
    line('Worker CPU', per.cpuMs * million, 'ms', PRICES.workerCpuPerMillionMs, million),
    line('Durable Object requests', per.durableObjectRequests * million, 'requests', PRICES.durableObjectRequestsPerMillion, million),
    line('Durable Object duration', per.durableObjectGbS * million, 'GB-s', PRICES.durableObjectPerMillionGbS, million),
    line('SQLite rows written', per.rowsWritten * million, 'rows', PRICES.rowsWrittenPerMillion, million),
    line('SQLite rows read', per.rowsRead * million, 'rows', PRICES.rowsReadPerMillion, million),
    line('SQLite stored data', per.storedGbMonth * million, 'GB-month', PRICES.storedPerGbMonth, 1),
  ];
  return { lines, total: lines.reduce((sum, entry) => sum + entry.cost, 0) };
}

/** A line of the bill: `price` dollars per `per` units (a million requests, one GB-month). */
function line(name, quantity, unit, price, per) {
  return { name, quantity, unit, price, per, cost: (quantity / per) * price };
}
