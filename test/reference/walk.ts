// Every record of a list, walked to its end through next_cursor with the largest page.
import { call, type TestApp } from '../helpers.js';

export type Row = Record<string, unknown> & { id: string };

export async function everyRecord(app: TestApp, collection: string, key: string): Promise<Row[]> {
  const rows: Row[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 1000; page++) {
    const url: string = `/v1/${collection}?limit=100${cursor === null ? '' : `&starting_after=${cursor}`}`;
    const result = await call(app, url, { key });
    if (result.status !== 200) throw new Error(`${url} answered ${result.status}: ${result.text}`);
    rows.push(...result.json.data);
    if (!result.json.has_more) return rows;
    cursor = result.json.next_cursor;
  }
  throw new Error(`/v1/${collection} did not end within 1000 pages`);
}

/** The keys of an object, sorted, so two field sets compare whatever their order. */
export function keysOf(value: unknown): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`not an object: ${JSON.stringify(value)}`);
  return Object.keys(value).sort();
}

export function sorted(names: readonly string[]): string[] {
  return [...names].sort();
}
