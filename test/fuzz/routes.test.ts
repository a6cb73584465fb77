// Fuzzing every route of the table through app.request (issue "Impossible to crash"): requests
// generated from the route table and its zod schemas, then mutated; every answer is checked by
// the oracle. Seeded: FUZZ_SEED replays a run (a failure prints the seed and the shrunk case),
// FUZZ_SEED=random picks a new one; FUZZ_RUNS sets the total number of cases (default 3,000).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, type MockInstance, vi } from 'vitest';
import { FACILITIES } from '../../src/data/generate/fixtures.js';
import { EVENT_TYPES } from '../../src/resources/events/types.js';
import { ENDPOINTS } from '../../src/resources/index.js';
import { ID_PREFIXES, type ObjectType } from '../../src/schemas/common.js';
import { COLLECTIONS, call, OTHER_KEY, PUBLIC_KEY, testApp } from '../helpers.js';
import type { z } from 'zod';
import { problemsOf } from './oracle.js';
import { type FuzzRequest, oddRequest, rawBodyRequest, routeRequest, type Samples } from './requests.js';
import { jsonSchemaOf } from './schema-arbitrary.js';

const SEED = process.env.FUZZ_SEED === 'random' ? Date.now() % 2 ** 31 : Number(process.env.FUZZ_SEED ?? 20_261_124);
const RUNS = Number(process.env.FUZZ_RUNS ?? 3000);

const app = testApp();
let consoleError: MockInstance<typeof console.error>;

const samples: Samples = { ids: {} as Samples['ids'], hints: {}, validBodies: {} };

beforeAll(async () => {
  for (const object of Object.keys(ID_PREFIXES) as ObjectType[]) {
    const own = await call(app, `/v1/${COLLECTIONS[object]}?limit=100`);
    const other = await call(app, `/v1/${COLLECTIONS[object]}?limit=1`, { key: OTHER_KEY });
    const ownIds = (own.json.data as { id: string }[]).map((record) => record.id);
    samples.ids[object] = [...ownIds.filter((_, index) => index % 10 === 0), ...(other.json.data as { id: string }[]).map((r) => r.id)];
  }
  // Records in every state, so that state rules and their successes are reached too.
  for (const endpoint of ENDPOINTS.filter((candidate) => candidate.method === 'GET' && candidate.query !== undefined)) {
    const statuses = (jsonSchemaOf(endpoint.query?.() as z.ZodType).properties?.status?.enum ?? []) as string[];
    const object = (Object.keys(COLLECTIONS) as ObjectType[]).find((type) => endpoint.path === `/v1/${COLLECTIONS[type]}`);
    if (object === undefined) continue;
    for (const status of statuses) {
      const page = await call(app, `${endpoint.path}?status=${status}&limit=2`);
      samples.ids[object].push(...(page.json.data as { id: string }[]).map((record) => record.id));
    }
  }
  const allIds = Object.values(samples.ids).flat();
  samples.hints = {
    client: samples.ids.client,
    site: samples.ids.site,
    job: samples.ids.job,
    starting_after: allIds,
    designated_facility: FACILITIES.slice(0, 3).map((facility) => facility.epa_id),
    waste_codes: [['D001'], ['D001', 'F005'], ['D001', 'D001'], ['121'], ['D999']],
    events: [['*'], ['job.created'], [...EVENT_TYPES], ['job.created', 'job.created']],
    url: ['https://example.com/hook', 'http://example.com/hook', 'https://127.0.0.1/x', 'https://user:pw@example.com/'],
    state: ['TX', 'CA', 'XX', 'tx'],
    epa_id: ['TXD008123168', 'XXD008123168', null],
    name: ['Acme', ' ', ''],
    status: ['full', 'received', 'consolidated', 'shipped', 'open'],
  };
  const site = (await call(app, '/v1/sites?limit=1')).json.data[0] as { id: string; client: string };
  const scheduled = (await call(app, '/v1/jobs?status=scheduled&limit=1')).json.data[0] as { id: string };
  const address = { line1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701' };
  const facility = FACILITIES[0]?.epa_id ?? '';
  samples.validBodies = {
    createClient: [
      { name: 'Acme', kind: 'laboratory' },
      { name: 'Acme', kind: 'hhw_program', epa_id: 'TXD008123168', metadata: { a: 'b' } },
    ],
    updateClient: [{}, { name: 'Renamed', metadata: { a: null } }],
    createSite: [{ client: site.client, name: 'Yard', address }],
    updateSite: [{ name: 'Yard 2', access_notes: 'Gate code 1234' }],
    createWasteProfile: [{ client: site.client, name: 'Stream', waste_codes: ['D001', 'F005'] }],
    updateWasteProfile: [{ name: 'Stream 2' }],
    createJob: [
      { type: 'ci_pickup', client: site.client, site: site.id },
      { type: 'lab_pack', client: site.client, site: site.id, scheduled_for: '2026-09-12', window: { start: '08:00', end: '12:00' } },
    ],
    updateJob: [{ scheduled_for: '2026-09-13', window: { start: '07:00', end: '09:00' } }],
    cancelJob: [{}, { reason: 'Client closed early' }],
    updateContainer: [{ status: 'full' }, { weight_lb: 40 }],
    createManifest: [{ job: scheduled.id, designated_facility: facility }],
    createWebhookEndpoint: [
      { url: 'https://example.com/hooks', events: ['*'] },
      { url: 'https://example.com/h', events: ['job.created'] },
    ],
  };
  // A real fault reaches app.onError, which logs it: the fuzz fails on any such log.
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterAll(() => {
  consoleError.mockRestore();
});

async function sendAndCheck(request: FuzzRequest): Promise<void> {
  const response = await app.request(request.url, {
    method: request.method,
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body }),
  });
  const text = await response.text();
  const problems = problemsOf(request, response, text);
  if (consoleError.mock.calls.length > 0) {
    problems.push(
      `console.error was called (a thrown exception): ${consoleError.mock.calls.map((args) => args.map(String).join(' ')).join('\n')}`,
    );
    consoleError.mockClear();
  }
  if (problems.length > 0) {
    const shown = { ...request, body: typeof request.body === 'string' ? request.body.slice(0, 300) : request.body };
    throw new Error(`${response.status} for ${JSON.stringify(shown)}:\n- ${problems.join('\n- ')}\n${text.slice(0, 400)}`);
  }
}

async function fuzz(name: string, arbitrary: fc.Arbitrary<FuzzRequest>, numRuns: number): Promise<void> {
  const result = await fc.check(fc.asyncProperty(arbitrary, sendAndCheck), { seed: SEED, numRuns });
  if (result.failed) {
    throw new Error(
      `${name}: failed after ${result.numRuns} cases. Replay with FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}\n` +
        `${fc.defaultReportMessage(result) ?? ''}\n${String(result.errorInstance)}`,
    );
  }
  expect(result.numRuns).toBe(numRuns);
}

describe(`fuzzing every route (FUZZ_SEED=${SEED}, FUZZ_RUNS=${RUNS})`, () => {
  it('real routes with bodies and queries built from their own schemas, then mutated', async () => {
    await fuzz('routes', routeRequest(ENDPOINTS, samples), Math.ceil(RUNS * 0.5));
  });

  it('near-miss and odd paths, every method, odd queries and headers, raw bodies', async () => {
    await fuzz('odd requests', oddRequest(ENDPOINTS, samples), Math.ceil(RUNS * 0.3));
  });

  it('raw bodies on every write: invalid JSON and UTF-8, deep nesting, huge strings, edge numbers', async () => {
    await fuzz('raw bodies', rawBodyRequest(ENDPOINTS, samples), Math.ceil(RUNS * 0.2));
  });

  it('the oracle rejects a wrong answer (so the properties above can fail)', async () => {
    // A 500 that was not simulated, an empty param, the library's wording, and a success of the wrong shape.
    const request = { method: 'GET', url: '/v1/jobs', headers: { Authorization: `Bearer ${PUBLIC_KEY}` } };
    const fault = await app.request('/v1/jobs', { headers: { Authorization: `Bearer ${PUBLIC_KEY}`, 'Sandbox-Simulate': 'api_error' } });
    expect(problemsOf(request, fault, await fault.text())).toContainEqual(expect.stringMatching(/not simulated/));
    const emptyParam = new Response(
      '{"error":{"type":"invalid_request_error","code":"parameter_invalid","message":"x","param":"","doc_url":"/docs/errors#parameter_invalid","request_id":"req_000000000000000000000000"}}',
      { status: 400, headers: { 'Request-Id': 'req_000000000000000000000000', 'Content-Type': 'application/json' } },
    );
    expect(problemsOf(request, emptyParam, await emptyParam.clone().text()).join('\n')).toMatch(/param must never be empty/);
    const libraryWords = new Response(
      '{"error":{"type":"invalid_request_error","code":"parameter_invalid","message":"Invalid name: Invalid input: expected string, received number.","param":"name","doc_url":"/docs/errors#parameter_invalid","request_id":"req_000000000000000000000000"}}',
      { status: 400, headers: { 'Request-Id': 'req_000000000000000000000000', 'Content-Type': 'application/json' } },
    );
    expect(problemsOf(request, libraryWords, await libraryWords.clone().text()).join('\n')).toMatch(/validation library's words/);
    const wrongShape = new Response('{"object":"list","data":[{"id":1}]}', {
      status: 200,
      headers: { 'Request-Id': 'req_000000000000000000000000', 'X-Echo': 'input' },
    });
    const problems = problemsOf(request, wrongShape, await wrongShape.clone().text()).join('\n');
    expect(problems).toMatch(/outside its schema/);
    expect(problems).toMatch(/unexpected header x-echo/);
  });
});
