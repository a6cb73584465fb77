// openapi.json, committed at the root (README, "Generate a client"): the document the sandbox serves
// with its default configuration, for clients generated without starting it. Read here as a
// client's generator reads it; `differences` names where a served document departs from it.
import { readFileSync } from 'node:fs';

export const PUBLISHED_SERVER = 'http://127.0.0.1:8787';

export const published = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8')) as Record<string, unknown>;

/** The JSON pointers where two documents differ, the first `limit` of them. */
export function differences(served: unknown, expected: unknown, limit = 5, at = ''): string[] {
  if (Object.is(served, expected)) return [];
  const object = (value: unknown) => typeof value === 'object' && value !== null;
  if (!object(served) || !object(expected) || Array.isArray(served) !== Array.isArray(expected)) {
    return [`${at || '/'}: served ${JSON.stringify(served)?.slice(0, 120)}, published ${JSON.stringify(expected)?.slice(0, 120)}`];
  }
  const left = served as Record<string, unknown>;
  const right = expected as Record<string, unknown>;
  const found: string[] = [];
  for (const name of new Set([...Object.keys(right), ...Object.keys(left)])) {
    if (found.length >= limit) break;
    const pointer = `${at}/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if (!(name in left)) found.push(`${pointer}: not served`);
    else if (!(name in right)) found.push(`${pointer}: served, not published`);
    else found.push(...differences(left[name], right[name], limit - found.length, pointer));
  }
  // Key order is part of the file: a generator may keep it (operations, properties, enum values).
  if (found.length === 0 && JSON.stringify(Object.keys(left)) !== JSON.stringify(Object.keys(right))) {
    found.push(`${at || '/'}: keys in another order`);
  }
  return found;
}

export const STALE =
  "openapi.json is not what the sandbox serves. If the change is on purpose, run `npm run openapi` and commit the file (a renamed operationId renames a generated client's method).";
