// One way to talk to the app in tests: through HTTP, in-process (STYLE.md, habit 7).
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createApp, type AppServices } from '../src/app.js';
import { readConfig, type ConfigSources } from '../src/config.js';
import type { ObjectType } from '../src/schemas/common.js';
import { COLLECTION_OF } from './reference/resources.js';
import { checkAgainstContract } from './contract.js';
import { checkEveryResponse, type ReadResponse, readResponse } from './response.js';

// Every error any Node suite meets is held to the OpenAPI document (its ErrorResponse schema, its statuses).
checkEveryResponse(checkAgainstContract);

export const PUBLIC_KEY = 'svc_test_sandbox_public';
export const READONLY_KEY = 'svc_test_sandbox_readonly';
export const JOBS_KEY = 'svc_test_sandbox_jobs';
export const OTHER_KEY = 'svc_test_sandbox_other';
export const REVOKED_KEY = 'svc_test_sandbox_revoked';

/** The collection each object type is listed under (`/v1/<collection>`), as the reference transcription gives it. */
export const COLLECTIONS: Readonly<Record<ObjectType, string>> = COLLECTION_OF;

export type TestApp = ReturnType<typeof createApp>;

/** The client's address of a test app's requests, unless a test gives its own (documentation range, RFC 5737). */
const TEST_ADDRESS = '192.0.2.10';

/** An app with rate limiting off, so suites that send thousands of requests are not limited. */
export function testApp(sources: ConfigSources = {}, services: Partial<AppServices> = {}): TestApp {
  return createApp(readConfig({ SANDBOX_RATE_LIMIT: 'off', ...sources }), { clientAddress: () => TEST_ADDRESS, ...services });
}

/** A test app behind @hono/node-server on a free loopback port, as a Node server serves it. */
export async function serveOnLoopback(sources: ConfigSources = {}): Promise<{ origin: string; close(): Promise<void> }> {
  const server = serve({ fetch: testApp(sources).fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface CallOptions {
  method?: string;
  /** An API key; null sends no Authorization header. */
  key?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface CallResult extends ReadResponse {
  /** Parsed JSON body; tests narrow it with toMatchObject or a schema. */
  // biome-ignore lint/suspicious/noExplicitAny: a test reads arbitrary response bodies
  json: any;
}

export async function call(app: TestApp, path: string, options: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? PUBLIC_KEY : options.key;
  if (key !== null) headers.Authorization = `Bearer ${key}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const method = options.method ?? 'GET';
  const response = await app.request(path, { method, headers, body });
  return readResponse(response, { method, path });
}

/** Walks a list to its end through next_cursor, returning every record. */
export async function listAll(app: TestApp, path: string, key: string = PUBLIC_KEY): Promise<{ id: string }[]> {
  const records: { id: string }[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 1000; page++) {
    const separator = path.includes('?') ? '&' : '?';
    const url: string = `${path}${separator}limit=100${cursor ? `&starting_after=${cursor}` : ''}`;
    const result = await call(app, url, { key });
    if (result.status !== 200) throw new Error(`${url} answered ${result.status}: ${result.text}`);
    records.push(...result.json.data);
    if (!result.json.has_more) return records;
    cursor = result.json.next_cursor;
  }
  throw new Error(`${path} did not end within 1000 pages`);
}
