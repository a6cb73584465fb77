// Request bodies of every write endpoint (SANDBOX.md, "Errors"): malformed JSON, a body that is
// not a JSON object, a non-JSON content type, a body over 1 MiB, and an empty POST body.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../src/resources/clients/schema.js';
import type { Container } from '../../src/resources/containers/schema.js';
import type { Job } from '../../src/resources/jobs/schema.js';
import type { Site } from '../../src/resources/sites/schema.js';
import type { WasteProfile } from '../../src/resources/waste_profiles/schema.js';
import type { WebhookEndpoint } from '../../src/resources/webhook_endpoints/schema.js';
import { expectError, expectStatus, findSample, keyWithout, missing, writesApp, type CallResult } from './helpers.js';
import { readResponse } from '../response.js';

const app = writesApp();

interface BodyEndpoint {
  name: string;
  method: 'POST' | 'PATCH';
  path: string;
  /** The first required field, reported when the body is empty; null when none is required. */
  firstRequired: string | null;
  /** What an empty body answers. */
  emptyStatus: number;
}

const ENDPOINTS: BodyEndpoint[] = [];
let webhookPath = '';

beforeAll(async () => {
  const client = await findSample<Client>(app, '/v1/clients');
  const site = await findSample<Site>(app, '/v1/sites');
  const profile = await findSample<WasteProfile>(app, '/v1/waste_profiles?status=draft');
  const scheduled = await findSample<Job>(app, '/v1/jobs?status=scheduled');
  const container = await findSample<Container>(app, '/v1/containers?status=open');
  webhookPath = `/v1/webhook_endpoints/${(await findSample<WebhookEndpoint>(app, '/v1/webhook_endpoints')).id}`;
  ENDPOINTS.push(
    { name: 'POST /v1/clients', method: 'POST', path: '/v1/clients', firstRequired: 'name', emptyStatus: 400 },
    { name: 'POST /v1/sites', method: 'POST', path: '/v1/sites', firstRequired: 'client', emptyStatus: 400 },
    { name: 'POST /v1/waste_profiles', method: 'POST', path: '/v1/waste_profiles', firstRequired: 'client', emptyStatus: 400 },
    { name: 'POST /v1/jobs', method: 'POST', path: '/v1/jobs', firstRequired: 'type', emptyStatus: 400 },
    { name: 'POST /v1/jobs/{id}/cancel', method: 'POST', path: `/v1/jobs/${scheduled.id}/cancel`, firstRequired: null, emptyStatus: 200 },
    { name: 'POST /v1/manifests', method: 'POST', path: '/v1/manifests', firstRequired: 'job', emptyStatus: 400 },
    { name: 'POST /v1/webhook_endpoints', method: 'POST', path: '/v1/webhook_endpoints', firstRequired: 'url', emptyStatus: 400 },
    { name: 'PATCH /v1/clients/{id}', method: 'PATCH', path: `/v1/clients/${client.id}`, firstRequired: null, emptyStatus: 200 },
    { name: 'PATCH /v1/sites/{id}', method: 'PATCH', path: `/v1/sites/${site.id}`, firstRequired: null, emptyStatus: 200 },
    {
      name: 'PATCH /v1/waste_profiles/{id}',
      method: 'PATCH',
      path: `/v1/waste_profiles/${profile.id}`,
      firstRequired: null,
      emptyStatus: 200,
    },
    { name: 'PATCH /v1/jobs/{id}', method: 'PATCH', path: `/v1/jobs/${scheduled.id}`, firstRequired: null, emptyStatus: 200 },
    { name: 'PATCH /v1/containers/{id}', method: 'PATCH', path: `/v1/containers/${container.id}`, firstRequired: null, emptyStatus: 200 },
  );
});

const NAMES = [
  'POST /v1/clients',
  'POST /v1/sites',
  'POST /v1/waste_profiles',
  'POST /v1/jobs',
  'POST /v1/jobs/{id}/cancel',
  'POST /v1/manifests',
  'POST /v1/webhook_endpoints',
  'PATCH /v1/clients/{id}',
  'PATCH /v1/sites/{id}',
  'PATCH /v1/waste_profiles/{id}',
  'PATCH /v1/jobs/{id}',
  'PATCH /v1/containers/{id}',
];

const endpoint = (name: string) => ENDPOINTS.find((entry) => entry.name === name) as BodyEndpoint;

/** Sends raw text as the body with the given Content-Type (null: no Content-Type header). */
function raw(
  target: BodyEndpoint,
  text: string | Uint8Array<ArrayBuffer>,
  contentType: string | null = 'application/json',
): Promise<CallResult> {
  return rawRequest(target.method, target.path, text, contentType);
}

async function rawRequest(
  method: string,
  path: string,
  body: string | Uint8Array<ArrayBuffer> | undefined,
  contentType: string | null,
): Promise<CallResult> {
  const headers: Record<string, string> = { Authorization: 'Bearer svc_test_sandbox_public' };
  if (contentType !== null) headers['Content-Type'] = contentType;
  const response = await app.request(path, { method, headers, ...(body === undefined ? {} : { body }) });
  return readResponse(response, { method, path });
}

const MALFORMED = ['{', '{"name":}', "{'name':'x'}", '{"name":"x",}', 'nul', '{"a":1}{"b":2}', '\u0000', '{"name":"\ud800"', '   '];
const NOT_AN_OBJECT = ['[]', '[{"name":"x"}]', '"hello"', 'null', '42', 'true', '-0.5e10'];

describe.each(NAMES)('%s: bodies', (name) => {
  it.each(MALFORMED)('malformed JSON %j is 400 parameter_invalid, without a param', async (text) => {
    const result = await raw(endpoint(name), text);
    expectError(result, { status: 400, code: 'parameter_invalid', message: /JSON/ });
  });

  it.each(NOT_AN_OBJECT)('a JSON body %s that is not an object is 400 parameter_invalid', async (text) => {
    expectError(await raw(endpoint(name), text), { status: 400, code: 'parameter_invalid', message: /object/ });
  });

  it('invalid UTF-8 is 400, not a 500', async () => {
    const bytes = new Uint8Array([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]);
    expectError(await raw(endpoint(name), bytes), { status: 400, code: 'parameter_invalid' });
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml'])(
    'Content-Type %s with a body is 400 param Content-Type',
    async (contentType) => {
      expectError(await raw(endpoint(name), '{"name":"x"}', contentType), {
        status: 400,
        code: 'parameter_invalid',
        param: 'Content-Type',
      });
    },
  );

  it('a body without a Content-Type is 400 param Content-Type', async () => {
    expectError(await raw(endpoint(name), '{"name":"x"}', null), { status: 400, code: 'parameter_invalid', param: 'Content-Type' });
  });

  it.each(['application/json; charset=utf-8', 'Application/JSON', 'application/merge-patch+json'])(
    'Content-Type %s is JSON',
    async (contentType) => {
      const result = await raw(endpoint(name), '{}', contentType);
      expect(result.status, result.text).toBe(endpoint(name).emptyStatus);
    },
  );

  it('a body over 1 MiB is 413 parameter_invalid', async () => {
    const text = `{"name":"${'x'.repeat(1024 * 1024)}"}`;
    expectError(await raw(endpoint(name), text), { status: 413, code: 'parameter_invalid', message: /1 MiB/ });
  });

  it('a body over 1 MiB in a non-JSON type is 413 too (the size is checked first)', async () => {
    expectError(await raw(endpoint(name), 'x'.repeat(1024 * 1024 + 1), 'text/plain'), { status: 413, code: 'parameter_invalid' });
  });

  it('a body just under 1 MiB is read (and judged on its content)', async () => {
    const text = `{"name":"${'x'.repeat(1024 * 1024 - 20)}"}`;
    const result = await raw(endpoint(name), text);
    // No length limit on names (the reference sets none): where PATCH takes a name, it is taken
    // whole; everywhere else the answer is about the fields, never the size.
    if (['PATCH /v1/clients/{id}', 'PATCH /v1/sites/{id}', 'PATCH /v1/waste_profiles/{id}'].includes(name)) {
      expectStatus(result, 200);
      expect(result.json.name).toHaveLength(1024 * 1024 - 20);
    } else {
      expect(result.status, result.text.slice(0, 300)).toBe(400);
      expect(result.json.error.message).not.toMatch(/MiB/);
    }
  });

  it('an empty body is {}', async () => {
    const target = endpoint(name);
    const result = await rawRequest(target.method, target.path, undefined, null);
    if (target.firstRequired === null) expectStatus(result, target.emptyStatus);
    else expectError(result, missing(target.firstRequired));
  });

  it('an empty body with a Content-Type is {} as well', async () => {
    const target = endpoint(name);
    const result = await raw(target, '', 'text/plain');
    if (target.firstRequired === null) expectStatus(result, target.emptyStatus);
    else expectError(result, missing(target.firstRequired));
  });

  it('JSON {} is the same as no body', async () => {
    const target = endpoint(name);
    const result = await raw(target, '{}');
    if (target.firstRequired === null) expectStatus(result, target.emptyStatus);
    else expectError(result, missing(target.firstRequired));
  });
});

describe('bodies: particular cases', () => {
  it('POST /v1/clients with no body is 400 parameter_missing name', async () => {
    expectError(await rawRequest('POST', '/v1/clients', undefined, null), missing('name'));
  });

  it('POST /v1/jobs/{id}/cancel with no body cancels', async () => {
    const job = await findSample<Job>(app, '/v1/jobs?status=draft');
    const result = await rawRequest('POST', `/v1/jobs/${job.id}/cancel`, undefined, null);
    expectStatus(result, 200);
    expect(result.json.status).toBe('cancelled');
  });

  it('a body that is JSON after a BOM is read', async () => {
    const result = await rawRequest('POST', '/v1/clients', '\ufeff{"name":"Bom","kind":"laboratory"}', 'application/json');
    expectStatus(result, 201);
  });

  it('deeply nested JSON is a 400, not a 500', async () => {
    const depth = 5000;
    const text = `{"name":"x","kind":"laboratory","metadata":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const result = await rawRequest('POST', '/v1/clients', text, 'application/json');
    expect(result.status, result.text).toBe(400);
    // The body as a whole is refused before any field is read, so no param is named.
    expect(result.json.error).toMatchObject({ code: 'parameter_invalid', message: expect.stringMatching(/deeper than 32 levels/) });
    expect(result.json.error).not.toHaveProperty('param');
  });

  it('deeply nested JSON sent with an Idempotency-Key is a 400, not a 500', async () => {
    // The key's fingerprint is taken before validation, so the nesting must not break it.
    const depth = 5000;
    const text = `{"name":"x","kind":"laboratory","metadata":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const result = await app.request('/v1/clients', {
      method: 'POST',
      headers: {
        Authorization: 'Bearer svc_test_sandbox_public',
        'Content-Type': 'application/json',
        'Idempotency-Key': `deep-${Date.now()}`,
      },
      body: text,
    });
    const answer = await result.text();
    expect(result.status, answer).toBe(400);
    expect(JSON.parse(answer).error).toMatchObject({ code: 'parameter_invalid', message: expect.stringMatching(/deeper than 32 levels/) });
  });

  it('DELETE ignores any body, even one that is not JSON', async () => {
    const result = await rawRequest('DELETE', webhookPath, 'not json', 'text/plain');
    expectStatus(result, 200);
    expect(result.json.deleted).toBe(true);
  });

  it('a body whose connection breaks mid-way is a 400, not a 500', async () => {
    // A stream without Content-Length that fails after its first chunk, as an aborted upload does.
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"name":"Half'));
        controller.error(new Error('aborted'));
      },
    });
    const result = await app.request('/v1/clients', {
      method: 'POST',
      headers: { Authorization: 'Bearer svc_test_sandbox_public', 'Content-Type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    const answer = await result.text();
    expect(result.status, answer).toBe(400);
    expect(JSON.parse(answer).error).toMatchObject({ code: 'parameter_invalid', message: expect.stringMatching(/could not be read/) });
  });

  it('a Content-Length over 1 MiB is 413 before the body is read', async () => {
    const result = await app.request('/v1/clients', {
      method: 'POST',
      headers: {
        Authorization: 'Bearer svc_test_sandbox_public',
        'Content-Type': 'application/json',
        'Content-Length': String(2 * 1024 * 1024),
      },
      body: '{}',
    });
    const text = await result.text();
    expect(result.status, text).toBe(413);
  });
});

describe('bodies and the order of checks', () => {
  const malformed = (key: string | null, method = 'POST') =>
    app.request('/v1/clients', {
      method,
      headers: { ...(key === null ? {} : { Authorization: `Bearer ${key}` }), 'Content-Type': 'text/plain' },
      body: '{not json',
    });

  it('no key: 401 before the body is read', async () => {
    const result = await malformed(null);
    expect(result.status, await result.text()).toBe(401);
  });

  it('a wrong method: 405 before the body is read', async () => {
    const result = await malformed('svc_test_sandbox_public', 'PUT');
    expect(result.status, await result.text()).toBe(405);
    expect(result.headers.get('Allow')).toContain('POST');
  });

  it('a key without the scope: 403 before the body is read', async () => {
    const result = await malformed(keyWithout('clients:write'));
    const text = await result.text();
    expect(result.status, text).toBe(403);
    expect(JSON.parse(text).error.code).toBe('scope_missing');
  });

  it('a body over 1 MiB with a key without the scope: 403', async () => {
    const result = await app.request('/v1/clients', {
      method: 'POST',
      headers: { Authorization: `Bearer ${keyWithout('clients:write')}`, 'Content-Type': 'application/json' },
      body: `{"name":"${'x'.repeat(1024 * 1024)}"}`,
    });
    expect(result.status, await result.text()).toBe(403);
  });
});

// docs/behaviour.md, "Limits": bodies nesting objects and arrays deeper than 32 levels are a 400
// (validation and fingerprints walk a body recursively). Only structure counts: brackets and
// escaped quotes inside strings are text.
describe('body nesting', () => {
  const TOO_DEEP = 'Request body nests objects and arrays deeper than 32 levels.';
  const tooDeep = { status: 400, code: 'parameter_invalid', message: /^Request body nests objects and arrays deeper than 32 levels\.$/ };
  const nested = (levels: number) => `${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`;
  const post = (text: string) => rawRequest('POST', '/v1/clients', text, 'application/json');

  it('32 levels are read (the answer is about the fields), 33 are a 400 saying so', async () => {
    const read = await post(`{"name":"Acme","metadata":${nested(31)}}`);
    expect(read.status, read.text).toBe(400);
    expect(read.json.error.message).not.toBe(TOO_DEEP);
    expectError(await post(`{"name":"Acme","metadata":${nested(32)}}`), tooDeep);
    expectError(await post(`[${'['.repeat(40)}${']'.repeat(40)}]`), tooDeep);
  });

  it('a string with escapes and text between them, before the nesting, is skipped whole: the nesting still counts', async () => {
    for (const text of ['a\\nbc', 'x\\"quoted\\" and \\u00e9t\\u00e9', 'back\\\\slash then more']) {
      expectError(await post(`{"name":"${text}","metadata":${nested(32)}}`), tooDeep);
    }
  });

  it.each([
    ['brackets', `{"name":"${'[{'.repeat(40)}"}`],
    ['escaped quotes before brackets', `{"name":"\\"${'['.repeat(40)}\\\\","notes":"x\\\\"}`],
    ['a long string of brackets, large enough to be checked before it is parsed', `{"name":"${'['.repeat(70_000)}"}`],
  ])('%s inside strings are not nesting: the answer is not about depth', async (_, text) => {
    const result = await post(text);
    expect(result.status, result.text.slice(0, 300)).not.toBe(500);
    expect(result.json.error?.message ?? '').not.toBe(TOO_DEEP);
  });
});
