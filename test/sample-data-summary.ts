// A small summary of the default seed's sample data, kept beside its hash (test/sample-data.sha256)
// in test/sample-data.summary.json, so a change of the data says what changed: per account and
// list, the count of records, a digest of each field over all records, and a short digest of
// each record. Written by `UPDATE_SAMPLE_DATA=1 npx vitest run test/sample-data-determinism.test.ts`.
import { createHash } from 'node:crypto';

export interface SampleDataSummary {
  hash: string;
  lists: Record<string, { count: number; fields: Record<string, string>; records: string }>;
}

type Data = { accounts: Record<string, Record<string, readonly Record<string, unknown>[]>> };

const RECORD_DIGEST = 6;

function digest(text: string, length: number): string {
  return createHash('sha256').update(text).digest('hex').slice(0, length);
}

function recordDigests(records: readonly Record<string, unknown>[]): string[] {
  return records.map((record) => digest(JSON.stringify(record), RECORD_DIGEST));
}

export function summarize(data: Data, hash: string): SampleDataSummary {
  const lists: SampleDataSummary['lists'] = {};
  for (const [account, collections] of Object.entries(data.accounts)) {
    for (const [collection, records] of Object.entries(collections)) {
      const names = [...new Set(records.flatMap((record) => Object.keys(record)))].sort();
      const fields = Object.fromEntries(names.map((name) => [name, digest(JSON.stringify(records.map((record) => record[name])), 12)]));
      lists[`${account} ${collection}`] = { count: records.length, fields, records: recordDigests(records).join('') };
    }
  }
  return { hash, lists };
}

function listed(names: readonly string[], most = 8): string {
  return names.length <= most ? names.join(', ') : `${names.slice(0, most).join(', ')} and ${names.length - most} more`;
}

/** What changed from the stored summary to the data now, one line per list that changed. */
export function describeChanges(stored: SampleDataSummary, data: Data): string[] {
  const now = summarize(data, '');
  const lines: string[] = [];
  for (const name of new Set([...Object.keys(stored.lists), ...Object.keys(now.lists)])) {
    const before = stored.lists[name];
    const after = now.lists[name];
    if (before === undefined || after === undefined) {
      lines.push(`${name}: ${before === undefined ? 'a new list' : 'no longer generated'}`);
      continue;
    }
    const [account, collection] = name.split(' ') as [string, string];
    const records = data.accounts[account]?.[collection] ?? [];
    const old = new Set(before.records.match(new RegExp(`.{${RECORD_DIGEST}}`, 'g')) ?? []);
    const current = recordDigests(records);
    const changed = records.filter((_, i) => !old.has(current[i] as string)).map((record) => String(record.id));
    const gone = old.size - current.filter((value) => old.has(value)).length;
    const fields = Object.keys({ ...before.fields, ...after.fields });
    const added = fields.filter((field) => before.fields[field] === undefined);
    const removed = fields.filter((field) => after.fields[field] === undefined);
    const differing = fields.filter(
      (field) => !added.includes(field) && !removed.includes(field) && before.fields[field] !== after.fields[field],
    );
    if (before.count === after.count && changed.length === 0 && added.length + removed.length + differing.length === 0) continue;
    const parts = [`${before.count} → ${after.count} records`];
    if (added.length > 0) parts.push(`fields added: ${added.join(', ')}`);
    if (removed.length > 0) parts.push(`fields removed: ${removed.join(', ')}`);
    if (differing.length > 0) parts.push(`fields whose values changed: ${differing.join(', ')}`);
    if (changed.length > 0) parts.push(`records new or changed: ${listed(changed)}`);
    if (gone > 0) parts.push(`${gone} record(s) of before no longer as they were`);
    lines.push(`${name}: ${parts.join('; ')}`);
  }
  return lines;
}
