// The form in which the build ships the default seed's sample data (scripts/prebuilt-data.mjs):
// what the store serves, ready to use. Per account and collection, the records' JSON exactly as
// served, in list order, as one JSON array, and where each record ends in its UTF-8 bytes. The
// store parses each array on first use and serves views into its bytes: no generator, no faker,
// no sort, no serialising at start-up (src/data/store.ts, ResourceIndex.prebuilt).
import type { AccountData, AccountName } from './dataset.js';

/** The account indexes, by the name of the collection (the path segment of its list). */
export const COLLECTIONS = [
  'clients',
  'sites',
  'waste_profiles',
  'jobs',
  'containers',
  'manifests',
  'invoices',
  'webhook_endpoints',
  'events',
] as const satisfies readonly (keyof AccountData)[];

export type Collection = (typeof COLLECTIONS)[number];
export type CollectionRecord<C extends Collection> = AccountData[C][number];

/** One list as the build writes it: `[record,record,…]` and where each record ends (UTF-8 bytes). */
export interface PrebuiltListText {
  json: string;
  ends: number[];
}

/** One list as the store reads it: its JSON as text (to parse) and as bytes (to serve). */
export interface PrebuiltList {
  ends: readonly number[];
  json(): string;
  utf8(): Uint8Array<ArrayBuffer>;
}

export interface PrebuiltSampleData<L = PrebuiltList> {
  seed: string;
  accounts: Record<AccountName, Record<Collection, L>>;
}

export type PrebuiltAccount<L = PrebuiltList> = Record<Collection, L>;

/**
 * The shipped form: one file of UTF-8 bytes, every list's JSON one after the other (read beside
 * the bundle on Node, a Data module of the bundle on Workers), and per list its byte range. Bytes
 * are served as views into the file; each list's text is decoded and parsed on first use.
 */
export interface PrebuiltLayout {
  seed: string;
  accounts: Record<AccountName, Record<Collection, { start: number; end: number; ends: number[] }>>;
}

/** Both accounts' lists, each made by `list`. */
function eachList(seed: string, list: (account: AccountName, collection: Collection) => PrebuiltList): PrebuiltSampleData {
  const account = (name: AccountName) => {
    const lists = {} as Record<Collection, PrebuiltList>;
    for (const collection of COLLECTIONS) lists[collection] = list(name, collection);
    return lists;
  };
  return { seed, accounts: { A: account('A'), B: account('B') } };
}

/**
 * The lists of a file of which `read` gives the bytes between two offsets; each list is read on
 * its first use and kept. Node reads the file beside the bundle this way, so a start reads only
 * what its first requests serve rather than all 2.8 MB.
 */
export function fromRanges(layout: PrebuiltLayout, read: (start: number, end: number) => Uint8Array<ArrayBuffer>): PrebuiltSampleData {
  const decoder = new TextDecoder();
  return eachList(layout.seed, (account, collection) => {
    const { start, end, ends } = layout.accounts[account][collection];
    let bytes: Uint8Array<ArrayBuffer> | undefined;
    const utf8 = () => {
      bytes ??= read(start, end);
      return bytes;
    };
    return { ends, json: () => decoder.decode(utf8()), utf8 };
  });
}

/** The lists of a file at hand whole (a Worker's Data module). */
export function fromLayout(layout: PrebuiltLayout, file: Uint8Array<ArrayBuffer>): PrebuiltSampleData {
  return fromRanges(layout, (start, end) => file.subarray(start, end));
}
