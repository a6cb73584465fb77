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
 * The Node form: one file of UTF-8 bytes, every list's JSON one after the other, read beside the
 * bundle, and per list its byte range. Bytes are served as views into the file; each list's
 * text is decoded and parsed on first use.
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

export function fromLayout(layout: PrebuiltLayout, file: Uint8Array<ArrayBuffer>): PrebuiltSampleData {
  const decoder = new TextDecoder();
  return eachList(layout.seed, (account, collection) => {
    const { start, end, ends } = layout.accounts[account][collection];
    const bytes = file.subarray(start, end);
    return { ends, json: () => decoder.decode(bytes), utf8: () => bytes };
  });
}

/**
 * The module form, for Workers: each list's JSON as a string of the bundle, encoded on first
 * use. (A Data module of the bytes would spare the encoding, but the workerd test pool cannot
 * load one from dist/.)
 */
export function fromTexts(data: PrebuiltSampleData<PrebuiltListText>): PrebuiltSampleData {
  const encoder = new TextEncoder();
  return eachList(data.seed, (account, collection) => {
    const { json, ends } = data.accounts[account][collection];
    return { ends, json: () => json, utf8: () => encoder.encode(json) as Uint8Array<ArrayBuffer> };
  });
}
