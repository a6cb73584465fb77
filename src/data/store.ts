// Indexes over the sample data of one seed, built once: each resource's records in list order,
// their JSON pre-serialised and UTF-8 encoded (a read copies bytes, it never serialises), and a
// position map for IDs and cursors. Nothing here changes after construction: the sandbox keeps
// nothing.
import type { Container } from '../resources/containers/schema.js';
import type { Job } from '../resources/jobs/schema.js';
import type { AccountData, AccountName, SampleData } from './dataset.js';
import {
  COLLECTIONS,
  type Collection,
  type CollectionRecord,
  type PrebuiltAccount,
  type PrebuiltList,
  type PrebuiltListText,
  type PrebuiltSampleData,
} from './prebuilt.js';
import { PREBUILT_SAMPLE_DATA } from '#prebuilt-sample-data';

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

interface Contents<T> {
  /** Records in the list order of the reference. */
  records: readonly T[];
  /** The UTF-8 JSON of each record, exactly as served. */
  bytes: readonly Uint8Array<ArrayBuffer>[];
  position: ReadonlyMap<string, number>;
}

function contentsOf<T extends Listable>(records: readonly T[], bytes: readonly Uint8Array<ArrayBuffer>[]): Contents<T> {
  return { records, bytes, position: new Map(records.map((record, index) => [record.id, index])) };
}

export class ResourceIndex<T extends Listable> {
  #contents: Contents<T> | undefined;
  readonly #load: () => Contents<T>;

  private constructor(load: () => Contents<T>) {
    this.#load = load;
  }

  /** Built on first use: a process that never reads events never parses them. */
  #data(): Contents<T> {
    this.#contents ??= this.#load();
    return this.#contents;
  }

  /** Records in the list order of the reference. */
  get records(): readonly T[] {
    return this.#data().records;
  }

  /** From generated records: sorted into list order, each serialised and encoded once. */
  static sorted<T extends Listable>(records: readonly T[], compare: (a: T, b: T) => number): ResourceIndex<T> {
    const sorted = [...records].sort(compare);
    const index = new ResourceIndex(() =>
      contentsOf(
        sorted,
        sorted.map((record) => utf8(JSON.stringify(record))),
      ),
    );
    index.#data();
    return index;
  }

  /**
   * From the prebuilt form (src/data/prebuilt.ts): one JSON array in list order, parsed and
   * encoded once, on first use; each record's bytes are a view into that one buffer. No sort, no
   * serialising, and nothing at all for a list nobody reads.
   */
  static prebuilt<T extends Listable>(list: PrebuiltList): ResourceIndex<T> {
    return new ResourceIndex(() => {
      const records = JSON.parse(list.json()) as T[];
      const buffer = list.utf8();
      let start = 1; // after "["
      const bytes = records.map((_record, i) => {
        const end = list.ends[i] as number;
        const view = buffer.subarray(start, end);
        start = end + 1; // after ","
        return view;
      });
      return contentsOf(records, bytes);
    });
  }

  /** This list in the prebuilt form: its records' bytes as one JSON array, and where each ends. */
  toPrebuilt(): PrebuiltListText {
    const decoder = new TextDecoder();
    const ends: number[] = [];
    let offset = 1;
    const { bytes: all } = this.#data();
    for (const bytes of all) {
      offset += bytes.byteLength;
      ends.push(offset);
      offset += 1;
    }
    return { json: `[${all.map((bytes) => decoder.decode(bytes)).join(',')}]`, ends };
  }

  get(id: string): T | undefined {
    const { position, records } = this.#data();
    // An unknown ID has no position, and records[undefined] is undefined.
    return records[position.get(id) as number];
  }

  /** The record's JSON exactly as served, UTF-8 encoded. */
  bytes(id: string): Uint8Array<ArrayBuffer> | undefined {
    const { position, bytes } = this.#data();
    return bytes[position.get(id) as number];
  }

  has(id: string): boolean {
    return this.#data().position.has(id);
  }

  /**
   * One page of the list, as the UTF-8 JSON of the list envelope. `startingAfter` must be a
   * record of this index (checked by the caller); paging continues after its place in the order
   * even when `matches` excludes it, so a page never shifts when filters change.
   */
  page(matches: ((record: T) => boolean) | undefined, limit: number, startingAfter: string | undefined): Uint8Array<ArrayBuffer> {
    const { records, bytes: all, position } = this.#data();
    let index = startingAfter === undefined ? 0 : (position.get(startingAfter) as number) + 1;
    const parts: Uint8Array<ArrayBuffer>[] = [];
    let size = 0;
    let lastId: string | null = null;
    let hasMore = false;
    for (; index < records.length; index++) {
      const record = records[index] as T;
      if (matches !== undefined && !matches(record)) continue;
      if (parts.length === limit) {
        hasMore = true;
        break;
      }
      const bytes = all[index] as Uint8Array<ArrayBuffer>;
      parts.push(bytes);
      size += bytes.byteLength;
      lastId = record.id;
    }
    // A page with more after it holds at least one record (limit is at least 1).
    const cursor = hasMore ? `"${lastId}"` : 'null';
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
  return ascending(b.created_at, a.created_at) || ascending(b.id, a.id);
}

/**
 * Jobs are soonest first (the reference's "soonest first", read so): scheduled_for ascending,
 * then window.start, then ID; undated jobs last.
 */
export function soonestFirst(a: Job, b: Job): number {
  return (
    ascending(a.scheduled_for ?? UNDATED, b.scheduled_for ?? UNDATED) ||
    ascending(a.window?.start ?? UNDATED, b.window?.start ?? UNDATED) ||
    ascending(a.id, b.id)
  );
}

/** Sorts after every time the API writes. */
const UNDATED = '\uffff';

/** Strings in code-unit order, as the times and IDs of the API sort. */
function ascending(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The reference's list order: newest first, except jobs, which are soonest first. */
function listOrder(collection: Collection): (a: Listable, b: Listable) => number {
  return (collection === 'jobs' ? soonestFirst : newestFirst) as (a: Listable, b: Listable) => number;
}

type Indexes = { [C in Collection]: ResourceIndex<CollectionRecord<C>> };

export class AccountStore implements Indexes {
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
  #containersByJob: ReadonlyMap<string, readonly Container[]> | undefined;

  private constructor(name: AccountName, seed: string, indexes: Indexes) {
    this.name = name;
    this.seed = seed;
    this.clients = indexes.clients;
    this.sites = indexes.sites;
    this.waste_profiles = indexes.waste_profiles;
    this.jobs = indexes.jobs;
    this.containers = indexes.containers;
    this.manifests = indexes.manifests;
    this.invoices = indexes.invoices;
    this.webhook_endpoints = indexes.webhook_endpoints;
    this.events = indexes.events;
  }

  /** A job's containers, in the order they were created (built on first use). */
  get containersByJob(): ReadonlyMap<string, readonly Container[]> {
    if (this.#containersByJob === undefined) {
      const byJob = new Map<string, Container[]>();
      // Newest first reversed: oldest first (the order is total, ties broken by ID).
      for (const container of [...this.containers.records].reverse()) {
        const list = byJob.get(container.job);
        if (list) list.push(container);
        else byJob.set(container.job, [container]);
      }
      this.#containersByJob = byJob;
    }
    return this.#containersByJob;
  }

  /** One index per collection, each made by `index`. */
  static #build(name: AccountName, seed: string, index: (collection: Collection) => ResourceIndex<Listable>): AccountStore {
    const indexes = {} as Record<Collection, ResourceIndex<Listable>>;
    for (const collection of COLLECTIONS) indexes[collection] = index(collection);
    return new AccountStore(name, seed, indexes as unknown as Indexes);
  }

  static fromData(name: AccountName, data: AccountData, seed: string): AccountStore {
    return AccountStore.#build(name, seed, (collection) => ResourceIndex.sorted<Listable>(data[collection], listOrder(collection)));
  }

  static fromPrebuilt(name: AccountName, lists: PrebuiltAccount, seed: string): AccountStore {
    return AccountStore.#build(name, seed, (collection) => ResourceIndex.prebuilt(lists[collection]));
  }

  toPrebuilt(): PrebuiltAccount<PrebuiltListText> {
    const lists = {} as PrebuiltAccount<PrebuiltListText>;
    for (const collection of COLLECTIONS) lists[collection] = (this[collection] as ResourceIndex<Listable>).toPrebuilt();
    return lists;
  }
}

export class SampleStore {
  readonly seed: string;
  readonly accounts: Readonly<Record<AccountName, AccountStore>>;

  private constructor(seed: string, accounts: Record<AccountName, AccountStore>) {
    this.seed = seed;
    this.accounts = accounts;
  }

  static fromData(data: SampleData): SampleStore {
    return new SampleStore(data.seed, {
      A: AccountStore.fromData('A', data.accounts.A, data.seed),
      B: AccountStore.fromData('B', data.accounts.B, data.seed),
    });
  }

  static fromPrebuilt(prebuilt: PrebuiltSampleData): SampleStore {
    return new SampleStore(prebuilt.seed, {
      A: AccountStore.fromPrebuilt('A', prebuilt.accounts.A, prebuilt.seed),
      B: AccountStore.fromPrebuilt('B', prebuilt.accounts.B, prebuilt.seed),
    });
  }

  /** The form the build writes for the default seed (scripts/prebuilt-data.mjs). */
  toPrebuilt(): PrebuiltSampleData<PrebuiltListText> {
    return { seed: this.seed, accounts: { A: this.accounts.A.toPrebuilt(), B: this.accounts.B.toPrebuilt() } };
  }
}

const stores = new Map<string, SampleStore | Promise<SampleStore>>();

/**
 * The sample store of a seed, kept for the life of the process or isolate. The default seed's
 * comes prebuilt with the bundle when there is one (#prebuilt-sample-data): at hand at once, with
 * neither the generator nor faker loaded. Any other seed, or the sources run without a build,
 * loads the generator on first use: a promise, settled once the data is generated.
 */
export function sampleStore(seed: string): SampleStore | Promise<SampleStore> {
  let store = stores.get(seed);
  if (store === undefined) {
    store =
      PREBUILT_SAMPLE_DATA?.seed === seed
        ? SampleStore.fromPrebuilt(PREBUILT_SAMPLE_DATA)
        : import('./generated-store.js').then(({ generateSampleData }) => SampleStore.fromData(generateSampleData(seed)));
    stores.set(seed, store);
    // Once generated, the store itself is kept; a failure (never expected) answers each request
    // with a 500 through the app, not a crash of the process.
    if (store instanceof Promise) store.then((ready) => stores.set(seed, ready)).catch(() => stores.delete(seed));
  }
  return store;
}
