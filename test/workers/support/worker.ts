// One way to talk to the Worker in the workerd suites: an HTTP request to its fetch handler,
// through SELF (the Worker as wrangler.toml binds it) or, for a test that needs other variables
// (a small rate limit, "off"), through the same entry point handed those variables.
import { createExecutionContext, SELF, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import worker from '../../../src/worker.js';
import type { WorkerEnv } from '../../../src/worker/env.js';
import { type ReadResponse, readResponse } from '../../response.js';

export const PUBLIC_KEY = 'svc_test_sandbox_public';
export const READONLY_KEY = 'svc_test_sandbox_readonly';
export const JOBS_KEY = 'svc_test_sandbox_jobs';

export interface CallOptions {
  method?: string;
  /** An API key; null sends no Authorization header. */
  key?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
  /** Variables that replace the Worker's own for this request. */
  vars?: Partial<Pick<WorkerEnv, 'SANDBOX_SEED' | 'SANDBOX_RATE_LIMIT' | 'SANDBOX_KEYS'>>;
}

export type CallResult = ReadResponse;

export async function call(path: string, options: CallOptions = {}): Promise<CallResult> {
  const headers = new Headers(options.headers);
  const key = options.key === undefined ? PUBLIC_KEY : options.key;
  if (key !== null) headers.set('Authorization', `Bearer ${key}`);
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    if (!headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
  }
  const request = new Request(`https://sandbox.example${path}`, { method: options.method ?? 'GET', headers, body });
  let response: Response;
  if (options.vars === undefined) {
    response = await SELF.fetch(request);
  } else {
    const ctx = createExecutionContext();
    // A request made in a test carries no incoming `cf` properties; the app reads none.
    const incoming = request as Parameters<typeof worker.fetch>[0];
    response = await worker.fetch(incoming, { ...env, ...options.vars }, ctx);
    await waitOnExecutionContext(ctx);
  }
  return readResponse(response);
}

/** The `error` member of an error body, for toMatchObject. */
export function errorOf(result: CallResult): Record<string, unknown> {
  const body = result.json as { error?: Record<string, unknown> } | undefined;
  if (body?.error === undefined) throw new Error(`not an error body (${result.status}): ${result.text}`);
  return body.error;
}

/** A key no other test uses, so suites sharing the Durable Objects never meet. */
export function uniqueKey(label: string): string {
  return `${label}-${crypto.randomUUID()}`;
}
