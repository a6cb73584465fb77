// openapi.json, committed at the root (docs/toolkit.md, "Generate a typed client"): the document
// the sandbox serves with its default configuration, for clients generated without starting it.
import { readFileSync } from 'node:fs';

export const PUBLISHED_SERVER = 'http://127.0.0.1:8787';

export const published = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8')) as Record<string, unknown>;

/**
 * A document as the file lays it out, `servers` (the origin asked) aside: key order counts (a
 * generator may keep it), and a difference shows as the lines that differ.
 */
export function withoutServers(document: Record<string, unknown>): string {
  const { servers: _servers, ...rest } = document;
  return JSON.stringify(rest, null, 2);
}

export const STALE =
  "openapi.json is not what the sandbox serves. If the change is on purpose, run `npm run openapi` and commit the file (a renamed operationId renames a generated client's method).";
