// Arbitrary requests built from the route table: paths (real routes with real and odd IDs,
// near-misses, encoded segments), methods, query strings, headers and bodies.
import fc from 'fast-check';
import { DEFAULT_KEYS } from '../../src/auth/keys.js';
import type { Endpoint } from '../../src/http/endpoint.js';
import { ID_PREFIXES, type ObjectType } from '../../src/schemas/common.js';
import { arbitraryOf, type Hints, type Json, jsonSchemaOf, mutated, oneOfValues, TRICKY_VALUES } from './schema-arbitrary.js';

export interface FuzzRequest {
  method: string;
  /** Path and query, as sent (already percent-encoded, or deliberately not). */
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
  simulate?: string | undefined;
}

/** IDs of sample records by object type, both accounts; and realistic body values by field name. */
export interface Samples {
  ids: Record<ObjectType, string[]>;
  hints: Hints;
  /** Bodies that pass validation, by operationId: mutated, they probe one rule at a time. */
  validBodies: Record<string, Json[]>;
}

const METHODS = ['GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'HEAD', 'OPTIONS'] as const;
const KEYS = DEFAULT_KEYS.map((entry) => entry.key);
const VALID_KEY = 'svc_test_sandbox_public';

/** Header values must be bytes without CR, LF or NUL (the fetch Headers class refuses others). */
const headerChar = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)) },
  { weight: 1, arbitrary: oneOfValues('\t', '\u00e9', '\u00ff', '\u0080', '\u007f', '\u0001') },
);
const headerText = (maxLength: number) => fc.string({ unit: headerChar, maxLength });

export const authorization: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 12, arbitrary: fc.constant(`Bearer ${VALID_KEY}`) },
  { weight: 3, arbitrary: oneOfValues(...KEYS).map((key) => `Bearer ${key}`) },
  { weight: 1, arbitrary: fc.constant(undefined) },
  {
    weight: 4,
    arbitrary: fc
      .tuple(
        oneOfValues('Bearer', 'bearer', 'BEARER', 'bEaReR', 'Basic', 'Token', ''),
        oneOfValues(' ', '  ', '\t', ' \t '),
        oneOfValues(...KEYS, 'svc_live_abc', '', 'svc_test_', `${VALID_KEY}x`, VALID_KEY.slice(0, -1), VALID_KEY.toUpperCase()),
        oneOfValues('', ' ', '  '),
      )
      .map(([scheme, space, key, tail]) => `${scheme}${space}${key}${tail}`),
  },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 12_000 }).map((length) => `Bearer ${'k'.repeat(length)}`) },
  { weight: 1, arbitrary: headerText(80) },
);

const contentType = oneOfValues(
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/merge-patch+json',
  'application/jsonx',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  '',
  ';',
);

const idempotencyKey = fc.oneof(
  { weight: 3, arbitrary: oneOfValues('fuzz-1', 'fuzz-2', 'fuzz-3') },
  { weight: 3, arbitrary: headerText(300) },
  { weight: 1, arbitrary: fc.integer({ min: 250, max: 260 }).map((length) => 'i'.repeat(length)) },
);

const simulate = fc.oneof(
  { weight: 20, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: oneOfValues('api_error', 'rate_limited', ' api_error ', 'API_ERROR', '', 'none') },
  // Failures on demand, but never a reset (a dropped connection is its own test) or a long delay.
  {
    weight: 1,
    arbitrary: oneOfValues(
      'api_error_after_write',
      'duplicate_event',
      'delay=0',
      'delay=5, api_error_after_write',
      'delay=60001',
      'delay=',
      'api_error,rate_limited',
      'duplicate_event,',
    ),
  },
  { weight: 1, arbitrary: headerText(20) },
);

export const headersArbitrary = (withBody: boolean) =>
  fc
    .record(
      {
        authorization,
        contentType: withBody
          ? fc.option(fc.oneof({ weight: 6, arbitrary: fc.constant('application/json') }, contentType), { freq: 8 })
          : fc.constant(null),
        idempotencyKey: fc.option(idempotencyKey, { freq: 2 }),
        simulate,
        origin: fc.option(oneOfValues('https://example.com', 'null'), { freq: 8 }),
      },
      { noNullPrototype: true },
    )
    .map((parts) => {
      const headers: Record<string, string> = {};
      if (parts.authorization !== undefined) headers.Authorization = parts.authorization;
      if (parts.contentType !== null) headers['Content-Type'] = parts.contentType;
      if (parts.idempotencyKey !== null) headers['Idempotency-Key'] = parts.idempotencyKey;
      if (parts.simulate !== undefined) headers['Sandbox-Simulate'] = parts.simulate;
      if (parts.origin !== null) headers.Origin = parts.origin;
      return { headers, simulate: parts.simulate };
    });

/** Segments that are odd in a path: encoded slashes and dots, bad escapes, controls, long ones. */
export const ODD_SEGMENTS = [
  '',
  '.',
  '..',
  '%2e%2e',
  '%2F',
  'a%2Fb',
  '..%2F..%2Fetc%2Fpasswd',
  '%00',
  '%0d%0aSet-Cookie:%20x=1',
  '%E0%A4%A',
  '%C3%28',
  '%FF%FE',
  '%',
  '%zz',
  encodeURIComponent('😀'),
  '%F0%9F%98',
  'a'.repeat(3000),
  '%20',
  ';x=1',
  '__proto__',
  'constructor',
] as const;

/** The path of an endpoint with an ID that exists, belongs to another account, or is odd. */
function pathOf(endpoint: Endpoint, samples: Samples): fc.Arbitrary<string> {
  if (endpoint.pathId === undefined) return fc.constant(endpoint.path);
  const object = endpoint.pathId;
  const prefix = ID_PREFIXES[object];
  const id = fc.oneof(
    { weight: 4, arbitrary: oneOfValues(...samples.ids[object]) },
    { weight: 1, arbitrary: fc.stringMatching(new RegExp(`^${prefix}_[0-9A-Za-z]{14}$`)) },
    { weight: 1, arbitrary: oneOfValues(...ODD_SEGMENTS).map((odd) => `${prefix}_${odd}`) },
    { weight: 1, arbitrary: oneOfValues(...ODD_SEGMENTS, 'cli_00000000000000', `${prefix}00000000000000`) },
  );
  return id.map((value) => endpoint.path.replace(/\{\w+\}/, value));
}

/** A near-miss of a real path: a trailing slash, another case, a doubled slash, an extra segment. */
function nearMiss(path: string): fc.Arbitrary<string> {
  return oneOfValues(
    `${path}/`,
    path.toUpperCase(),
    path.replace('/v1/', '/v1//'),
    path.replace('/v1/', '/v2/'),
    path.replace('/v1/', '/'),
    `${path}/extra`,
    `${path}/..`,
    `${path}%2F`,
    `${path};`,
    `${path}/%2e%2e/%2e%2e`,
    path.replace('/v1/', '/v1/%2e/'),
    `/v1${path.slice(3, -1)}`,
  );
}

function queryPair(names: string[]): fc.Arbitrary<string> {
  const name = fc.oneof(
    { weight: 4, arbitrary: oneOfValues(...names, 'limit', 'starting_after') },
    { weight: 1, arbitrary: oneOfValues('__proto__', 'constructor', 'prototype', 'a[]', 'limit[]', 'limit[0]', '', 'toString') },
    { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
  );
  const value = fc.oneof(
    { weight: 2, arbitrary: oneOfValues('1', '100', '0', '101', '-1', '1e2', '0x10', '25', '', 'ci_pickup', 'draft', 'open') },
    { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
    { weight: 1, arbitrary: oneOfValues('%E0%A4%A', '%C3%28', '%FF', '%', '%00', '%0d%0a') },
  );
  return fc
    .tuple(name, value, fc.boolean())
    .map(([n, v, raw]) => (raw && /%/.test(v) ? `${encodeURIComponent(n)}=${v}` : `${encodeURIComponent(n)}=${encodeURIComponent(v)}`));
}

/** A query string: often none, else pairs of known, unknown, repeated and oddly encoded parameters. */
export function queryArbitrary(endpoint: Endpoint | undefined): fc.Arbitrary<string> {
  const names = endpoint?.query === undefined ? [] : Object.keys(jsonSchemaOf(endpoint.query()).properties ?? {});
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant('') },
    { weight: 3, arbitrary: fc.array(queryPair(names), { minLength: 1, maxLength: 4 }).map((pairs) => `?${pairs.join('&')}`) },
    { weight: 1, arbitrary: oneOfValues('?', '?&', '?=', '?limit', '?limit=1&limit=2', '?a[]=1&a[]=2', '?%', '?%E0%A4%A=1') },
  );
}

/** A body for the endpoint: built from its own schema, often mutated. */
export function schemaBody(endpoint: Endpoint, samples: Samples): fc.Arbitrary<Json> {
  if (endpoint.body === undefined) return fc.constant({});
  const generated = arbitraryOf(jsonSchemaOf(endpoint.body()), samples.hints);
  const known = samples.validBodies[endpoint.operationId] ?? [];
  const valid = known.length > 0 ? oneOfValues(...known) : generated;
  return fc.oneof(
    { weight: 2, arbitrary: valid },
    { weight: 2, arbitrary: mutated(valid) },
    { weight: 2, arbitrary: generated },
    { weight: 2, arbitrary: mutated(generated) },
  );
}

/** Bodies that are not the JSON object a write takes, or that push the parser's limits. */
export const RAW_BODIES: fc.Arbitrary<string | Uint8Array<ArrayBuffer>> = fc.oneof(
  oneOfValues(
    '',
    '{',
    '{"a":',
    "{'a':1}",
    'nul',
    '[]',
    'null',
    '1',
    '"x"',
    '{"name":1e309}',
    '{"weight_lb":-0}',
    '{"weight_lb":9007199254740993}',
    '{"weight_lb":1e309}',
    '{"name":"a","name":"b"}',
    '\ufeff{}',
    '{"__proto__":{"polluted":true}}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    '{"metadata":{"__proto__":"x"}}',
    `{"name":"${'x'.repeat(900_000)}"}`,
  ),
  fc.integer({ min: 1, max: 20_000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
  fc.integer({ min: 1, max: 20_000 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  fc.integer({ min: 1, max: 3000 }).map((depth) => `{"metadata":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`),
  oneOfValues(
    new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]),
    new Uint8Array([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
    new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
    new Uint8Array([0xc0, 0xaf]),
  ),
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
  oneOfValues(...TRICKY_VALUES).map((value) => JSON.stringify({ name: value, metadata: { k: value } })),
);

/** A well-formed request to a real route: its method, a real or odd ID, a query, a schema body. */
export function routeRequest(endpoints: readonly Endpoint[], samples: Samples): fc.Arbitrary<FuzzRequest> {
  return oneOfValues(...endpoints).chain((endpoint) =>
    fc
      .record(
        {
          path: pathOf(endpoint, samples),
          query: endpoint.method === 'GET' ? queryArbitrary(endpoint) : fc.constant(''),
          headers: headersArbitrary(endpoint.body !== undefined),
          body: schemaBody(endpoint, samples),
        },
        { noNullPrototype: true },
      )
      .map(({ path, query, headers, body }) => ({
        method: endpoint.method,
        url: `${path}${query}`,
        headers: headers.headers,
        simulate: headers.simulate,
        ...(endpoint.body === undefined ? {} : { body: JSON.stringify(body) }),
      })),
  );
}

/** Anything: near-miss and odd paths, every method, odd queries and headers, raw bodies. */
export function oddRequest(endpoints: readonly Endpoint[], samples: Samples): fc.Arbitrary<FuzzRequest> {
  const path = oneOfValues(...endpoints).chain((endpoint) =>
    fc.oneof(
      { weight: 2, arbitrary: pathOf(endpoint, samples) },
      { weight: 2, arbitrary: pathOf(endpoint, samples).chain(nearMiss) },
      {
        weight: 1,
        arbitrary: fc
          .array(fc.oneof(oneOfValues(...ODD_SEGMENTS), fc.webSegment()), { minLength: 1, maxLength: 4 })
          .map((segments) => `/v1/${segments.join('/')}`),
      },
      { weight: 1, arbitrary: oneOfValues('/', '/v1', '/v1/', '/health', '/docs', '/openapi.json', '//v1/jobs', '/%2e%2e/v1/jobs') },
    ),
  );
  return fc
    .record(
      {
        method: fc.oneof({ weight: 3, arbitrary: oneOfValues('GET', 'POST', 'PATCH', 'DELETE') }, oneOfValues(...METHODS)),
        path,
        query: fc.oneof(queryArbitrary(undefined), oneOfValues(...endpoints).chain(queryArbitrary)),
        headers: headersArbitrary(true),
        body: fc.option(RAW_BODIES, { freq: 2 }),
      },
      { noNullPrototype: true },
    )
    .map(({ method, path: sentPath, query, headers, body }) => ({
      method,
      url: `${sentPath}${query}`,
      headers: headers.headers,
      simulate: headers.simulate,
      // GET and HEAD cannot carry a body in the fetch API.
      ...(body === null || method === 'GET' || method === 'HEAD' ? {} : { body }),
    }));
}

/** Raw bodies, valid keys and content types, on the write endpoints: the body parser under fire. */
export function rawBodyRequest(endpoints: readonly Endpoint[], samples: Samples): fc.Arbitrary<FuzzRequest> {
  const writes = endpoints.filter((endpoint) => endpoint.body !== undefined);
  return oneOfValues(...writes).chain((endpoint) =>
    fc
      .record(
        {
          path: pathOf(endpoint, samples),
          body: RAW_BODIES,
          idempotencyKey: fc.option(idempotencyKey, { freq: 3 }),
          contentType: fc.oneof({ weight: 6, arbitrary: fc.constant('application/json') }, contentType),
        },
        { noNullPrototype: true },
      )
      .map(({ path, body, idempotencyKey: key, contentType: type }) => {
        const headers: Record<string, string> = { Authorization: `Bearer ${VALID_KEY}`, 'Content-Type': type };
        if (key !== null) headers['Idempotency-Key'] = key;
        return { method: endpoint.method, url: path, headers, body };
      }),
  );
}
