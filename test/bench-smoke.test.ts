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
interface BaselineModule {
  createBaselineApp(scenarios: Scenario[]): { request: (path: string, init: RequestInit) => Response | Promise<Response> };
}

// The bench helpers are plain ESM without type declarations; a computed specifier keeps tsc
// from asking for them, and the interfaces above say what this test relies on.
const helper = (name: string) => new URL(`../scripts/bench/${name}`, import.meta.url).href;
const { captureScenarios, responseDifference } = (await import(helper('scenarios.mjs'))) as ScenariosModule;
const { createBaselineApp } = (await import(helper('baseline-app.mjs'))) as BaselineModule;

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
    const sandbox = createApp(readConfig({ SANDBOX_RATE_LIMIT: 'off' }));
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
});
