// The benchmark's baseline (scripts/bench/baseline-app.mjs) must answer each benchmarked request
// with exactly the sandbox's status, headers and bytes, or the sandbox/baseline ratios of
// `npm run bench` compare different work. In-process through app.request; no timing here, ever.
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { readConfig } from '../src/config.js';

interface Answer {
  status: number;
  contentType: string | null;
  headers: Record<string, string>;
  body: Uint8Array;
}
interface Scenario {
  name: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  expect: number;
  response: Answer;
}
type Send = (scenario: { method: string; path: string; headers: Record<string, string>; body?: string }) => Promise<Answer>;
interface ScenariosModule {
  captureScenarios(send: Send): Promise<Scenario[]>;
  responseDifference(expected: Answer, actual: Answer): string | null;
}
type InProcessApp = { request: (path: string, init: RequestInit) => Response | Promise<Response> };
interface BaselineModule {
  createBaselineApp(scenarios: Scenario[]): InProcessApp;
}
interface MinimalCreateModule {
  createMinimalCreateApp(template: Record<string, unknown>): InProcessApp;
}

// The bench helpers are plain ESM without type declarations; a computed specifier keeps tsc
// from asking for them, and the interfaces above say what this test relies on.
const helper = (name: string) => new URL(`../scripts/bench/${name}`, import.meta.url).href;
const { captureScenarios, responseDifference } = (await import(helper('scenarios.mjs'))) as ScenariosModule;
const { createBaselineApp } = (await import(helper('baseline-app.mjs'))) as BaselineModule;
const { createMinimalCreateApp } = (await import(helper('minimal-create-app.mjs'))) as MinimalCreateModule;

async function answerOf(response: Response): Promise<Answer> {
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    headers: Object.fromEntries(response.headers),
    body: new Uint8Array(await response.arrayBuffer()),
  };
}

/** `send` for an app handled in-process. */
function inProcess(app: { request: (path: string, init: RequestInit) => Response | Promise<Response> }): Send {
  return async ({ method, path, headers, body }) =>
    answerOf(await app.request(path, { method, headers, ...(body === undefined ? {} : { body }) }));
}

describe('bench baseline', () => {
  it('answers every benchmarked request with the sandbox’s exact status, headers and bytes', async () => {
    const sandbox = createApp(readConfig({ SANDBOX_RATE_LIMIT: 'off' }), { clientAddress: () => '192.0.2.10' });
    const scenarios = await captureScenarios(inProcess(sandbox));
    expect(scenarios.map((scenario) => [scenario.name, scenario.response.status])).toEqual([
      ['list', 200],
      ['get', 200],
      ['error', 401],
      ['create', 201],
    ]);

    const baseline = inProcess(createBaselineApp(scenarios));
    for (const scenario of scenarios) {
      const difference = responseDifference(scenario.response, await baseline(scenario));
      expect(difference, `${scenario.method} ${scenario.path}`).toBeNull();
    }
  });

  it('runs the create on a minimal Hono + zod create that validates the body and answers a record of the same shape', async () => {
    const sandbox = createApp(readConfig({ SANDBOX_RATE_LIMIT: 'off' }), { clientAddress: () => '192.0.2.10' });
    const create = (await captureScenarios(inProcess(sandbox))).find((scenario) => scenario.name === 'create') as Scenario;
    const decode = (body: Uint8Array) => JSON.parse(new TextDecoder().decode(body)) as Record<string, unknown>;
    const template = decode(create.response.body);
    const minimal = inProcess(createMinimalCreateApp(template));

    const answer = await minimal(create);
    expect(answer.status).toBe(201);
    const record = decode(answer.body);
    // The sandbox's job fields (reference, "Jobs"), in its order; a new ID and the body's values.
    expect(Object.keys(record)).toEqual(Object.keys(template));
    expect(record.id).toMatch(/^job_[0-9A-Za-z]{14}$/);
    expect(record.id).not.toBe(template.id);
    const sent = JSON.parse(create.body as string) as Record<string, unknown>;
    for (const field of ['type', 'client', 'site', 'scheduled_for', 'window']) expect(record[field]).toEqual(sent[field]);
    // The same work of stringifying: sizes within a few bytes (the timestamps are its own).
    expect(Math.abs(answer.body.length - create.response.body.length)).toBeLessThanOrEqual(4);

    // It validates as a zod schema does: a wrong type, an unknown field and a window backwards are 400s.
    for (const body of [
      { ...sent, type: 'bulk_pickup' },
      { ...sent, color: 'red' },
      { ...sent, window: { start: '12:00', end: '08:00' } },
    ]) {
      expect((await minimal({ ...create, body: JSON.stringify(body) })).status, JSON.stringify(body)).toBe(400);
    }
    expect((await minimal({ ...create, headers: { 'Content-Type': 'application/json' } })).status).toBe(401);
  });
});
