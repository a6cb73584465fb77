// Issue #25: every error response the OpenAPI document lists has an example of each of its cases,
// and each example is what the sandbox really answers: the request its summary names is sent over
// HTTP and the answer's status, code, message and param must be the example's (request_id aside).
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../src/index.js';

// The table's working key has every scope; the other two each lack most of them.
const sandbox = createSandbox({
  keys: [
    { key: 'svc_test_team_ci', account: 'A', scopes: '*' },
    { key: 'svc_test_team_events', account: 'A', scopes: ['events:read'] },
    { key: 'svc_test_team_clients', account: 'A', scopes: ['clients:read'] },
  ],
});
const KEY = 'svc_test_team_ci';

interface Example {
  summary: string;
  value: { error: Record<string, unknown> };
}
interface Operation {
  operationId: string;
  requestBody?: { content: { 'application/json': { example?: Record<string, unknown> } } };
  responses: Record<string, { description: string; content: { 'application/json': { examples?: Record<string, Example> } } }>;
}

const document = (await (await sandbox.fetch(new Request('https://sandbox.test/openapi.json'))).json()) as {
  paths: Record<string, Record<string, Operation>>;
};

interface Case {
  name: string;
  method: string;
  status: number;
  example: Example;
  body: Record<string, unknown> | undefined;
}

const cases: Case[] = [];
const missing: string[] = [];
for (const [path, operations] of Object.entries(document.paths)) {
  for (const [method, operation] of Object.entries(operations)) {
    for (const [status, response] of Object.entries(operation.responses)) {
      if (Number(status) < 400) continue;
      const codes = [...response.description.matchAll(/(?:^|; )([a-z_]+): /g)].map((match) => match[1]);
      const examples = Object.values(response.content['application/json'].examples ?? {});
      if (examples.length !== codes.length) missing.push(`${method.toUpperCase()} ${path} ${status}: ${codes.join(', ')}`);
      for (const example of examples) {
        cases.push({
          name: `${operation.operationId} ${status} ${example.value.error.code}: ${example.summary}`,
          method: method.toUpperCase(),
          status: Number(status),
          example,
          body: operation.requestBody?.content['application/json'].example,
        });
      }
    }
  }
}

/** The request an example's summary names: `METHOD /path[?query] [with …]`. */
async function answerTo({ method, example, body }: Case): Promise<Response> {
  const [, line, path, what = ''] = example.summary.match(/^([A-Z]+) (\S+)(?: with (.*))?$/) ?? [];
  expect(line).toBe(method);
  const headers: Record<string, string> = { Authorization: `Bearer ${KEY}` };
  let sent: string | undefined = body === undefined ? undefined : JSON.stringify(body);
  const authorization = what.match(/^Authorization: (.+)$/)?.[1];
  const lacking = what.match(/^a key that lacks (\S+)$/)?.[1];
  const header = what.match(/^(Sandbox-Clock|Sandbox-Simulate): (\S+)$/);
  const reference = what.match(/^(\w+) ([a-z]+_\w+)$/);
  if (what === 'no Authorization header') delete headers.Authorization;
  else if (authorization !== undefined) headers.Authorization = authorization;
  else if (lacking !== undefined)
    headers.Authorization = `Bearer ${lacking === 'events:read' ? 'svc_test_team_clients' : 'svc_test_team_events'}`;
  else if (what === 'the body {}') sent = '{}';
  else if (what === 'a field it does not take, colour') sent = JSON.stringify({ ...body, colour: 'green' });
  else if (what === 'a body over 1 MiB') sent = JSON.stringify({ notes: 'x'.repeat(1024 * 1024) });
  else if (header !== null) headers[header[1] as string] = header[2] as string;
  else if (reference !== null) sent = JSON.stringify({ ...body, [reference[1] as string]: reference[2] });
  else if (what === 'an Idempotency-Key already sent with another body') {
    headers['Idempotency-Key'] = `examples-${Math.random()}`;
    const first = await send(method, path as string, headers, sent);
    expect(first.status).toBeLessThan(300);
    sent = JSON.stringify({ ...body, colour: 'green' });
  } else expect(what, 'a summary this test can send').toBe('');
  return send(method, path as string, headers, sent);
}

function send(method: string, path: string, headers: Record<string, string>, body: string | undefined): Promise<Response> {
  const init: RequestInit = { method, headers: { ...headers, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) } };
  if (body !== undefined && method !== 'GET') init.body = body;
  return sandbox.fetch(new Request(`https://sandbox.test${path}`, init));
}

describe("the OpenAPI document's error examples", () => {
  it('give every error response an example of each of its cases', () => {
    expect(missing).toEqual([]);
    expect(cases.length).toBeGreaterThan(200);
    // Each example its own: more than one kind of body across the document.
    expect(new Set(cases.map((entry) => entry.example.value.error.code)).size).toBe(10);
  });

  it.each(cases.map((entry) => [entry.name, entry] as const))('%s is what the sandbox answers', async (_name, entry) => {
    const answer = await answerTo(entry);
    const text = await answer.text();
    expect(answer.status, text).toBe(entry.status);
    const { request_id: _sent, ...error } = (JSON.parse(text) as { error: Record<string, unknown> }).error;
    const { request_id: _documented, ...documented } = entry.example.value.error;
    expect(error).toEqual(documented);
  });
});
