// Indexes over the sample data of one seed, built once: each resource's records in list order,
// their JSON pre-serialised and UTF-8 encoded (a read copies bytes, it never serialises), and a
// position map for IDs and cursors. Nothing here changes after construction: the sandbox keeps
// nothing.
import type { Container } from '../resources/containers/schema.js';
import type { Job } from '../resources/jobs/schema.js';
import type { WasteProfile } from '../resources/waste_profiles/schema.js';
import type { AccountData, AccountName, SampleData } from './dataset.js';
import { generateSampleData } from './generate/index.js';

interface Listable {
  id: string;
}

const encoder = new TextEncoder();
/** UTF-8 bytes, typed as the ArrayBuffer-backed view that Response bodies take on every runtime. */
function utf8(text: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(text) as Uint8Array<ArrayBuffer>;
}
const LIST_OPEN = utf8('{"object":"list","data":[');
const COMMA = utf8(',');

export class ResourceIndex<T extends Listable> {
  /** Records in the list order of the reference. */
  readonly records: readonly T[];
  readonly #bytes: readonly Uint8Array<ArrayBuffer>[];
  readonly #position: ReadonlyMap<string, number>;

  constructor(records: readonly T[], compare: (a: T, b: T) => number) {
    this.records = [...records].sort(compare);
    this.#bytes = this.records.map((record) => utf8(JSON.stringify(record)));
    this.#position = new Map(this.records.map((record, index) => [record.id, index]));
  }

  get(id: string): T | undefined {
    const index = this.#position.get(id);
    return index === undefined ? undefined : this.records[index];
  }

  /** The record's JSON exactly as served, UTF-8 encoded. */
  bytes(id: string): Uint8Array<ArrayBuffer> | undefined {
    const index = this.#position.get(id);
    return index === undefined ? undefined : this.#bytes[index];
  }

  has(id: string): boolean {
    return this.#position.has(id);
  }

  /**
   * One page of the list, as the UTF-8 JSON of the list envelope. `startingAfter` must be a
   * record of this index (checked by the caller); paging continues after its place in the order
   * even when `matches` excludes it (SANDBOX.md, "Validation decisions").
   */
  page(matches: ((record: T) => boolean) | undefined, limit: number, startingAfter: string | undefined): Uint8Array<ArrayBuffer> {
    let index = startingAfter === undefined ? 0 : (this.#position.get(startingAfter) ?? -1) + 1;
    const parts: Uint8Array<ArrayBuffer>[] = [];
    let size = 0;
    let lastId: string | null = null;
    let hasMore = false;
    for (; index < this.records.length; index++) {
      const record = this.records[index] as T;
      if (matches !== undefined && !matches(record)) continue;
      if (parts.length === limit) {
        hasMore = true;
        break;
      }
      const bytes = this.#bytes[index] as Uint8Array<ArrayBuffer>;
      parts.push(bytes);
      size += bytes.byteLength;
      lastId = record.id;
    }
    const cursor = hasMore && lastId !== null ? `"${lastId}"` : 'null';
    const close = utf8(`],"has_more":${hasMore},"next_cursor":${cursor}}`);
    // One allocation and a copy per record: the page is never serialised or encoded again.
    const body = new Uint8Array(LIST_OPEN.byteLength + size + Math.max(parts.length - 1, 0) + close.byteLength);
    let offset = 0;
    const append = (chunk: Uint8Array) => {
      body.set(chunk, offset);
      offset += chunk.byteLength;
    };
    append(LIST_OPEN);
    parts.forEach((part, i) => {
      if (i > 0) append(COMMA);
      append(part);
    });
    append(close);
    return body;
  }
}

interface Dated {
  id: string;
  created_at: string;
}

/** Newest first: created_at descending, then ID descending so ties have one order. */
export function newestFirst(a: Dated, b: Dated): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/**
 * Jobs are soonest first (SANDBOX.md, "Readings of the reference"): scheduled_for ascending,
 * then window.start, then ID; undated jobs last.
 */
export function soonestFirst(a: Job, b: Job): number {
  const keyOf = (job: Job) => [job.scheduled_for ?? '\uffff', job.window?.start ?? '\uffff', job.id] as const;
  const [ka, kb] = [keyOf(a), keyOf(b)];
  for (let i = 0; i < ka.length; i++) {
    if (ka[i] !== kb[i]) return (ka[i] as string) < (kb[i] as string) ? -1 : 1;
  }
  return 0;
}

export class AccountStore {
  readonly name: AccountName;
  /** The seed the records come from: with the name, what tells two accounts' data apart. */
  readonly seed: string;
  readonly clients;
  readonly sites;
  readonly waste_profiles;
  readonly jobs;
  readonly containers;
  readonly manifests;
  readonly invoices;
  readonly webhook_endpoints;
  readonly events;
  /** A job's containers, in the order they were created. */
  readonly containersByJob: ReadonlyMap<string, readonly Container[]>;

  constructor(name: AccountName, data: AccountData, seed: string) {
    this.name = name;
    this.seed = seed;
    this.clients = new ResourceIndex(data.clients, newestFirst);
    this.sites = new ResourceIndex(data.sites, newestFirst);
    this.waste_profiles = new ResourceIndex<WasteProfile>(data.waste_profiles, newestFirst);
    this.jobs = new ResourceIndex(data.jobs, soonestFirst);
    this.containers = new ResourceIndex(data.containers, newestFirst);
    this.manifests = new ResourceIndex(data.manifests, newestFirst);
    this.invoices = new ResourceIndex(data.invoices, newestFirst);
    this.webhook_endpoints = new ResourceIndex(data.webhook_endpoints, newestFirst);
    this.events = new ResourceIndex(data.events, newestFirst);
    const byJob = new Map<string, Container[]>();
    for (const container of [...data.containers].sort((a, b) => -newestFirst(a, b))) {
      const list = byJob.get(container.job);
      if (list) list.push(container);
      else byJob.set(container.job, [container]);
    }
    this.containersByJob = byJob;
  }
}

export class SampleStore {
  readonly seed: string;
  readonly accounts: Readonly<Record<AccountName, AccountStore>>;

  constructor(data: SampleData) {
    this.seed = data.seed;
    this.accounts = {
      A: new AccountStore('A', data.accounts.A, data.seed),
      B: new AccountStore('B', data.accounts.B, data.seed),
    };
  }
}

const stores = new Map<string, SampleStore>();

/**
 * The sample store of a seed, generated on first use and kept for the life of the process or
 * isolate: generation is deterministic, so every instance builds the same bytes.
 */
export function sampleStore(seed: string): SampleStore {
  let store = stores.get(seed);
  if (!store) {
    store = new SampleStore(generateSampleData(seed));
    stores.set(seed, store);
  }
  return store;
}
