// Shared pieces of the write-endpoint suites: an app with a key table that has one key per
// missing write scope, the error-shape assertion, and ways to find sample records through the
// API (sample data is generated, so no test names a sample ID).
import { expect, it } from 'vitest';
import { z } from 'zod';
import type { AppServices } from '../../src/app.js';
import { SCOPES, type Scope } from '../../src/auth/scopes.js';
import { call, JOBS_KEY, listAll, OTHER_KEY, PUBLIC_KEY, testApp, type CallOptions, type CallResult, type TestApp } from '../helpers.js';

export { call, JOBS_KEY, listAll, OTHER_KEY, PUBLIC_KEY, type CallResult, type TestApp };

/** The real clock, fixed for the suites: write responses carry it (SANDBOX.md, "Nothing kept"). */
export const NOW = new Date('2026-07-14T09:26:53.589Z');
export const NOW_TIMESTAMP = '2026-07-14T09:26:53Z';

export const WRITE_SCOPES = SCOPES.filter((scope) => scope.endsWith(':write'));

/** A key of account A with every scope except `scope`. */
export function keyWithout(scope: Scope): string {
  return `svc_test_without_${scope.replace(':', '_')}`;
}

/** A second all-scopes key of account A: Idempotency-Keys are per API key, not per account. */
export const TWIN_KEY = 'svc_test_sandbox_public_twin';

const KEY_TABLE = [
  { key: PUBLIC_KEY, account: 'A', scopes: '*' },
  { key: TWIN_KEY, account: 'A', scopes: '*' },
  { key: OTHER_KEY, account: 'B', scopes: '*' },
  { key: JOBS_KEY, account: 'A', scopes: ['jobs:read', 'jobs:write'] },
  ...WRITE_SCOPES.map((scope) => ({ key: keyWithout(scope), account: 'A', scopes: SCOPES.filter((s) => s !== scope) })),
];

/** The app of these suites: rate limit off, the key table above, the clock fixed at NOW. */
export function writesApp(services: Partial<AppServices> = {}): TestApp {
  return testApp({ SANDBOX_KEYS: JSON.stringify(KEY_TABLE) }, { now: () => NOW, ...services });
}

export function send(app: TestApp, method: string, path: string, options: Omit<CallOptions, 'method'> = {}): Promise<CallResult> {
  return call(app, path, { ...options, method });
}

/** SANDBOX.md, "Errors": the type of each code. */
const TYPE_OF_CODE: Record<string, string> = {
  parameter_missing: 'invalid_request_error',
  parameter_invalid: 'invalid_request_error',
  api_key_missing: 'authentication_error',
  api_key_invalid: 'authentication_error',
  scope_missing: 'permission_error',
  resource_missing: 'invalid_request_error',
  method_not_allowed: 'invalid_request_error',
  idempotency_conflict: 'invalid_request_error',
  state_invalid: 'invalid_request_error',
  rate_limited: 'rate_limit_error',
  api_error: 'api_error',
};

/** The reference's error body, exactly: no member outside it. */
export const ErrorBody = z.strictObject({
  error: z.strictObject({
    type: z.enum(['invalid_request_error', 'authentication_error', 'permission_error', 'rate_limit_error', 'api_error']),
    code: z.enum(Object.keys(TYPE_OF_CODE) as [string, ...string[]]),
    message: z.string().min(1),
    param: z.string().optional(),
    doc_url: z.string(),
    request_id: z.string().regex(/^req_[0-9A-Za-z]+$/),
  }),
});

export interface ExpectedError {
  status: number;
  code: string;
  /** The field at fault; undefined means the error must carry no param. */
  param?: string;
  /** Something the message must say. */
  message?: RegExp;
}

/** Status (with the body in the failure message), then the whole error body, then its schema. */
export function expectError(result: CallResult, expected: ExpectedError): void {
  expect(result.status, result.text).toBe(expected.status);
  expect(result.json).toEqual({
    error: {
      type: TYPE_OF_CODE[expected.code],
      code: expected.code,
      message: expect.any(String),
      param: expected.param,
      doc_url: `/docs/errors#${expected.code}`,
      request_id: result.headers.get('Request-Id'),
    },
  });
  // toEqual treats a missing member and an undefined one alike; an absent param must be absent.
  if (expected.param === undefined) expect(Object.keys(result.json.error)).not.toContain('param');
  if (expected.message !== undefined) expect(result.json.error.message).toMatch(expected.message);
  ErrorBody.parse(result.json);
}

export function expectStatus(result: CallResult, status: number): void {
  expect(result.status, result.text).toBe(status);
}

export const invalid = (param: string, message?: RegExp): ExpectedError => ({
  status: 400,
  code: 'parameter_invalid',
  param,
  ...(message ? { message } : {}),
});
export const missing = (param: string): ExpectedError => ({ status: 400, code: 'parameter_missing', param });
export const notFound = (param: string): ExpectedError => ({ status: 404, code: 'resource_missing', param });
export const stateInvalid = (message?: RegExp): ExpectedError => ({ status: 422, code: 'state_invalid', ...(message ? { message } : {}) });
export const scopeMissing: ExpectedError = { status: 403, code: 'scope_missing' };

/** A well-formed ID that no account holds (62^14 possible IDs; the sample data uses a few hundred). */
export function unknownId(prefix: string): string {
  return `${prefix}_ZZZZZZZZZZZZZZ`;
}

/** The sample records of a list, every page, as the API returns them. */
export async function records<T = Record<string, unknown>>(app: TestApp, path: string, key: string = PUBLIC_KEY): Promise<T[]> {
  return (await listAll(app, path, key)) as unknown as T[];
}

/** The first sample record of a list that satisfies `predicate`; fails the test when none does. */
export async function findSample<T = Record<string, unknown>>(
  app: TestApp,
  path: string,
  predicate: (record: T) => boolean = () => true,
  key: string = PUBLIC_KEY,
): Promise<T> {
  const found = (await records<T>(app, path, key)).find(predicate);
  if (found === undefined) throw new Error(`No sample record of ${path} fits this test; the sample data should hold one`);
  return found;
}

/** The responses of some GETs, byte for byte. */
export async function snapshot(app: TestApp, paths: readonly string[]): Promise<string[]> {
  const texts: string[] = [];
  for (const path of paths) {
    const result = await call(app, path);
    expectStatus(result, 200);
    texts.push(result.text);
  }
  return texts;
}

/**
 * SANDBOX.md, "Nothing kept": the GETs answer exactly as before the write. Returns the write's
 * result for further assertions.
 */
export async function expectNothingKept(app: TestApp, paths: readonly string[], write: () => Promise<CallResult>): Promise<CallResult> {
  const before = await snapshot(app, paths);
  const result = await write();
  expect(await snapshot(app, paths)).toEqual(before);
  return result;
}

/** JSON text that holds a `__proto__` key, which an object literal cannot express. */
export function withProtoKey(body: Record<string, unknown>, where: 'top' | 'metadata', value: unknown): string {
  const marker = '"__proto_marker__"';
  const text = JSON.stringify(where === 'top' ? { ...body, __proto_marker__: value } : { ...body, metadata: { __proto_marker__: value } });
  return text.replace(marker, '"__proto__"');
}

/** A metadata object of `count` distinct pairs. */
export function metadataPairs(count: number, prefix = 'k'): Record<string, string> {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [`${prefix}${i}`, `v${i}`]));
}

export interface MetadataTarget {
  app: TestApp;
  method: 'POST' | 'PATCH';
  /** The path, found once the sample data is there (a PATCH needs a sample ID). */
  path: () => Promise<string>;
  /** A valid body around the metadata sent. */
  body: (metadata: unknown) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** The metadata the record holds before the write: {} on create, the sample's on PATCH. */
  current: () => Promise<Record<string, string>>;
  success: number;
}

/**
 * The metadata rules of SANDBOX.md ("Validation decisions"), the same on every endpoint that
 * takes metadata: at most 20 pairs, keys 1..40, string values up to 500, `__proto__` a plain key;
 * on PATCH, a merge per key where null removes, the 20-pair limit holding for the result.
 */
export function metadataCases(target: MetadataTarget): void {
  const { app, method } = target;
  const write = async (metadata: unknown) => send(app, method, await target.path(), { body: await target.body(metadata) });

  it('takes a record of exactly 20 pairs, with a 40-character key and a 500-character value', async () => {
    // On PATCH the sample's own keys count towards the 20: send only what fills it up.
    const current = await target.current();
    const room = 20 - Object.keys(current).length;
    expect(room, 'the sample record should leave room for two pairs').toBeGreaterThanOrEqual(2);
    const sent = { ['k'.repeat(40)]: 'x', long: 'v'.repeat(500), ...metadataPairs(room - 2) };
    const result = await write(sent);
    expectStatus(result, target.success);
    expect(result.json.metadata).toEqual({ ...current, ...sent });
    expect(Object.keys(result.json.metadata)).toHaveLength(20);
  });

  it.each([
    ['21 pairs', metadataPairs(21), 'metadata'],
    ['a 41-character key', { ['k'.repeat(41)]: 'x' }, `metadata.${'k'.repeat(41)}`],
    // An empty key has no name to give, a very long one none worth repeating: metadata itself.
    ['an empty key', { '': 'x' }, 'metadata'],
    ['a 101-character key', { ['k'.repeat(101)]: 'x' }, 'metadata'],
    ['a 501-character value', { note: 'v'.repeat(501) }, 'metadata.note'],
    ['a number value', { count: 5 }, 'metadata.count'],
    ['a boolean value', { flag: true }, 'metadata.flag'],
    ['an object value', { nested: { a: 'b' } }, 'metadata.nested'],
    ['an array value', { list: ['a'] }, 'metadata.list'],
    ['a string instead of an object', 'tag', 'metadata'],
    ['an array instead of an object', ['a', 'b'], 'metadata'],
    ['null instead of an object', null, 'metadata'],
  ])('refuses metadata with %s: 400 naming the field', async (_case, metadata, param) => {
    expectError(await write(metadata), invalid(param));
  });

  it('stores __proto__ as a plain key and pollutes no prototype', async () => {
    const path = await target.path();
    const result = await send(app, method, path, { body: withProtoKey(await target.body({}), 'metadata', 'plain') });
    expectStatus(result, target.success);
    expect(Object.hasOwn(result.json.metadata, '__proto__')).toBe(true);
    // biome-ignore lint/suspicious/noProto: reading the key a client sent is the point of this test
    expect(result.json.metadata.__proto__).toBe('plain');
    expect(result.text).toContain('"__proto__":"plain"');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses a __proto__ metadata value that is an object, polluting nothing', async () => {
    const path = await target.path();
    const result = await send(app, method, path, { body: withProtoKey(await target.body({}), 'metadata', { polluted: 'yes' }) });
    expectError(result, invalid('metadata.__proto__'));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  if (method === 'POST') {
    it('refuses a null metadata value on create (null removes keys only on PATCH)', async () => {
      expectError(await write({ gone: null }), invalid('metadata.gone'));
    });
  }

  if (method === 'PATCH') {
    it('merges per key: null removes a key, others are kept, new ones added', async () => {
      const current = await target.current();
      const [removed, ...kept] = Object.keys(current);
      expect(removed, 'the sample record needs at least one metadata key').toBeDefined();
      const result = await write({ [removed as string]: null, added: 'new', never_there: null });
      expectStatus(result, target.success);
      const expected = Object.fromEntries([...kept.map((key) => [key, current[key]]), ['added', 'new']]);
      expect(result.json.metadata).toEqual(expected);
      // The kept keys in their order, the new one last.
      expect(Object.keys(result.json.metadata)).toEqual([...kept, 'added']);
    });

    it('refuses a merge whose result has more than 20 pairs: 400 param metadata', async () => {
      const current = await target.current();
      const count = Object.keys(current).length;
      expect(count, 'the sample record needs at least one metadata key').toBeGreaterThan(0);
      // 21 - count new keys: at most 20 in the body, 21 pairs once merged.
      const result = await write(metadataPairs(21 - count, 'merged_'));
      expectError(result, invalid('metadata', /20/));
    });

    it('changes a value in place and leaves the other keys alone', async () => {
      const current = await target.current();
      const [first] = Object.keys(current);
      const result = await write({ [first as string]: 'changed' });
      expectStatus(result, target.success);
      expect(result.json.metadata).toEqual({ ...current, [first as string]: 'changed' });
      // In place: the changed key keeps its position.
      expect(Object.keys(result.json.metadata)).toEqual(Object.keys(current));
    });
  }
}
