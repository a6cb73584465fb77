// The OpenAPI document served at /openapi.json: valid by an independent linter (Redocly), the
// same operations as the app routes, and true of what the sandbox answers: every record of every
// GET in both accounts validates against the document's own schema (ajv), and each operation's
// examples, sent as "try it" sends them, get the documented success.
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../src/errors.js';
import { ENDPOINTS } from '../src/resources/index.js';
import { checkAgainstContract, contractDocument, responseSchemaPointer, schemaProblems } from './contract.js';
import { call, OTHER_KEY, PUBLIC_KEY, testApp } from './helpers.js';

const app = testApp();

type Operation = {
  operationId: string;
  parameters?: { name?: string; in?: string; example?: unknown; $ref?: string }[];
  requestBody?: { content: { 'application/json': { example?: unknown } } };
  responses: Record<string, { content?: { 'application/json': { schema?: unknown; example?: unknown } }; headers?: object }>;
  'x-scope'?: string;
};
const paths = contractDocument.paths as unknown as Record<string, Record<string, Operation>>;
const operations = Object.entries(paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })),
);

describe('GET /openapi.json', () => {
  it('is served without a key, with CORS, naming the origin it was asked at as its server', async () => {
    const result = await call(app, 'http://sandbox.test:9000/openapi.json', { key: null, headers: { Origin: 'https://elsewhere.test' } });
    expect(result.status, result.text).toBe(200);
    expect(result.headers.get('Content-Type')).toBe('application/json');
    expect(result.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(result.headers.get('Request-Id')).toMatch(/^req_/);
    expect(result.json.openapi).toBe('3.1.0');
    expect(result.json.servers).toEqual([{ url: 'http://sandbox.test:9000', description: 'This sandbox' }]);
    const { servers: _servers, ...rest } = result.json;
    expect(rest).toEqual(JSON.parse(JSON.stringify(contractDocument)));
  });

  it("has no error and no warning by Redocly's recommended rules", async () => {
    const result = await call(app, 'https://sandbox.test/openapi.json', { key: null });
    // The package declares no license, so the document names none.
    const config = await createConfig({ extends: ['recommended'], rules: { 'info-license': 'off' } });
    const problems = await lintFromString({ source: result.text, absoluteRef: 'openapi.json', config });
    const summary = problems.map(
      (problem) => `${problem.severity} ${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`,
    );
    expect(
      summary.filter((line) => line.startsWith('error')),
      summary.join('\n'),
    ).toEqual([]);
    expect(summary, summary.join('\n')).toEqual([]);
  });
});

describe('the document and the app', () => {
  it('route exactly the same (method, path) pairs', () => {
    const routed = app.routes
      .filter((route) => route.path.startsWith('/v1/') && ['GET', 'POST', 'PATCH', 'DELETE'].includes(route.method))
      .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`);
    const documented = operations.map(({ method, path }) => `${method} ${path}`);
    expect(new Set(routed).size).toBe(routed.length);
    expect([...routed].sort()).toEqual([...documented].sort());
    expect(documented.length).toBe(ENDPOINTS.length);
  });

  it('gives every operation its id, summary, scope, success and errors with the ErrorResponse schema', () => {
    for (const { method, path, operation } of operations) {
      const endpoint = ENDPOINTS.find((candidate) => candidate.method === method && candidate.path === path);
      expect(operation.operationId).toBe(endpoint?.operationId);
      expect(operation['x-scope']).toBe(endpoint?.scope);
      for (const status of ['400', '401', '403', '429', '500']) expect(Object.keys(operation.responses)).toContain(status);
      if (endpoint?.pathId !== undefined) expect(Object.keys(operation.responses)).toContain('404');
      for (const [status, response] of Object.entries(operation.responses)) {
        expect(response.headers, `${operation.operationId} ${status}`).toMatchObject({ 'Request-Id': {}, 'RateLimit-Policy': {} });
        if (Number(status) >= 400) {
          expect(response.content?.['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorResponse' });
        }
      }
      const idempotencyKey = operation.parameters?.some((parameter) => parameter.$ref === '#/components/parameters/Idempotency-Key');
      expect(idempotencyKey, operation.operationId).toBe(endpoint?.idempotent === true);
      expect('409' in operation.responses).toBe(endpoint?.idempotent === true);
    }
    expect(operations.filter(({ operation }) => operation.responses['409'] !== undefined)).toHaveLength(7);
  });

  it('names every error code of the code table in the ErrorResponse schema', () => {
    const errorSchema = (
      contractDocument.components as { schemas: Record<string, { properties: { error: { properties: { code: { enum: string[] } } } } }> }
    ).schemas.ErrorResponse;
    expect(errorSchema?.properties.error.properties.code.enum.sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });
});

describe('every record every GET returns', () => {
  const reads = operations.filter(({ method }) => method === 'GET');

  for (const [account, key] of [
    ['A', PUBLIC_KEY],
    ['B', OTHER_KEY],
  ] as const) {
    it(`validates against the document's response schemas, account ${account}`, async () => {
      let records = 0;
      for (const { path, operation } of reads.filter((read) => !read.path.includes('{id}'))) {
        const listPointer = responseSchemaPointer('GET', path, 200);
        const getPath = `${path}/{id}`;
        let cursor: string | null = null;
        for (let page = 0; page < 1000; page++) {
          const url: string = `${path}?limit=100${cursor === null ? '' : `&starting_after=${cursor}`}`;
          const result = await call(app, url, { key });
          expect(result.status, result.text).toBe(200);
          expect(schemaProblems(listPointer, result.json), `${operation.operationId} ${url}`).toEqual([]);
          for (const record of result.json.data as { id: string }[]) {
            records++;
            if (paths[getPath]?.get === undefined) continue;
            const one = await call(app, `${path}/${record.id}`, { key });
            expect(one.status, one.text).toBe(200);
            expect(schemaProblems(responseSchemaPointer('GET', getPath, 200), one.json), `${getPath} ${record.id}`).toEqual([]);
          }
          if (!result.json.has_more) break;
          cursor = result.json.next_cursor;
        }
      }
      expect(records).toBeGreaterThan(account === 'A' ? 500 : 50);
    });
  }

  it('includes the examples of the document, which are records of the default seed', async () => {
    for (const { path, method, operation } of reads) {
      const example = operation.responses['200']?.content?.['application/json'].example;
      const id = operation.parameters?.find((parameter) => parameter.name === 'id')?.example;
      const result = await call(app, path.includes('{id}') ? path.replace('{id}', String(id)) : `${path}?limit=1`);
      expect(result.json, `${method} ${path}`).toEqual(example);
    }
  });
});

describe('the examples, sent as "try it" sends them', () => {
  it('of every list filter find the record the list example shows', async () => {
    for (const { path, operation } of operations.filter((entry) => entry.method === 'GET' && !entry.path.includes('{id}'))) {
      const query = new URLSearchParams();
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in === 'query' && parameter.example !== undefined) query.set(String(parameter.name), String(parameter.example));
      }
      const example = operation.responses['200']?.content?.['application/json'].example as { data: { id: string }[] };
      const result = await call(app, `${path}?${query}`);
      expect(result.status, result.text).toBe(200);
      expect(
        result.json.data.map((record: { id: string }) => record.id),
        `${path}?${query}`,
      ).toContain(example.data[0]?.id);
    }
  });

  for (const { path, method, operation } of operations.filter((entry) => entry.method !== 'GET')) {
    it(`${operation.operationId} gets its documented success`, async () => {
      const id = operation.parameters?.find((parameter) => parameter.name === 'id')?.example;
      const body = operation.requestBody?.content['application/json'].example;
      const result = await call(app, path.replace('{id}', String(id)), { method, ...(body === undefined ? {} : { body }) });
      const success = Object.keys(operation.responses).find((status) => status.startsWith('2'));
      expect(String(result.status), result.text).toBe(success);
      // The headers documented on the success, but Idempotent-Replayed, which only a replay has,
      // and Sandbox-Fault, which only the answer of a fault or a delay has.
      for (const header of Object.keys(operation.responses[success as string]?.headers ?? {})) {
        if (header !== 'Idempotent-Replayed' && header !== 'Sandbox-Fault') expect(result.headers.get(header), header).not.toBeNull();
      }
      expect(schemaProblems(responseSchemaPointer(method, path, Number(success)), result.json)).toEqual([]);
    });
  }
});

describe('the contract check every Node suite runs on error responses', () => {
  const errorBody = (code: string) => ({
    error: { type: 'invalid_request_error', code, message: 'm', doc_url: `/docs/errors#${code}`, request_id: 'req_x' },
  });
  const result = (status: number, json: unknown) => ({ status, headers: new Headers(), text: JSON.stringify(json), json });

  it('accepts an error the document lists for the operation', () => {
    expect(() =>
      checkAgainstContract({ method: 'POST', path: '/v1/jobs/job_x/cancel' }, result(422, errorBody('state_invalid'))),
    ).not.toThrow();
  });

  it('fails on a status the document does not list for the operation', () => {
    expect(() => checkAgainstContract({ method: 'GET', path: '/v1/jobs?limit=1' }, result(422, errorBody('state_invalid')))).toThrow(
      /does not list for listJobs/,
    );
  });

  it('fails on an error body that is not the ErrorResponse shape', () => {
    expect(() => checkAgainstContract({ method: 'GET', path: '/v1/jobs' }, result(400, { message: 'bad' }))).toThrow(/not an Error/);
    expect(() => checkAgainstContract({ method: 'GET', path: '/v1/jobs' }, result(400, errorBody('no_such_code')))).toThrow(/not an Error/);
  });
});
