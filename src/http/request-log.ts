// The operator's line per request, the same fields wherever the sandbox runs: Workers log it as
// JSON (src/worker.ts, read by Workers Logs), Node's `--log` as text (src/cli/serve.ts). Never a
// header (so never a key), never a body (so never a secret a write made).
import { pathAndQuery } from './query.js';

export interface RequestLogEntry {
  method: string;
  /** The path and query as sent, cut at 200 characters: the query tells a bad filter from a good one. */
  path: string;
  status: number;
  /** Milliseconds from the request to its answer's head, to a tenth. */
  ms: number;
  request_id: string | null;
  /** Sandbox-Fault of the answer: the failure made on purpose, so no one chases it as a real one. */
  fault?: string;
}

/** A path and its query as a log line shows them, cut at 200 characters (a URL may be 16 KiB). */
export function loggedPath(url: string): string {
  const path = pathAndQuery(url);
  return path.length <= 200 ? path : `${path.slice(0, 200)}…`;
}

export function requestLogEntry(method: string, url: string, response: Response, ms: number): RequestLogEntry {
  const entry: RequestLogEntry = {
    method,
    path: loggedPath(url),
    status: response.status,
    ms: Math.round(ms * 10) / 10,
    request_id: response.headers.get('Request-Id'),
  };
  const fault = response.headers.get('Sandbox-Fault');
  if (fault !== null) entry.fault = fault;
  return entry;
}
