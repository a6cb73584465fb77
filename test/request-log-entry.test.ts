// Issue #35, part 3: the operator's line per request has the same fields on Workers (JSON) and
// Node (--log): method, path, status, milliseconds, request ID, the fault if any; never a header
// or a body. Built here from real answers of the in-process sandbox; test/workerd-http and
// test/request-log.test.ts read the lines the two runtimes print.
import { describe, expect, it } from 'vitest';
import { requestLogEntry } from '../src/http/request-log.js';
import { createSandbox } from '../src/index.js';

const KEY = { Authorization: 'Bearer svc_test_sandbox_public' };

describe('the request log entry', () => {
  it('names the method, the path with its query, the status, the milliseconds to a tenth and the request ID', async () => {
    const sandbox = createSandbox();
    const url = 'http://sandbox.test/v1/jobs?limit=2&status=scheduled';
    const response = await sandbox.fetch(new Request(url, { headers: KEY }));
    const entry = requestLogEntry('GET', url, response, 12.345);
    expect(entry).toEqual({
      method: 'GET',
      path: '/v1/jobs?limit=2&status=scheduled',
      status: 200,
      ms: 12.3,
      request_id: response.headers.get('Request-Id'),
    });
    expect(entry.request_id).toMatch(/^req_/);
    expect(requestLogEntry('GET', url, response, 0.05).ms).toBe(0.1);
    expect(requestLogEntry('GET', url, response, 0.04).ms).toBe(0);
  });

  it('adds the fault made on purpose, as Sandbox-Fault says it, and only then', async () => {
    const sandbox = createSandbox();
    const url = 'http://sandbox.test/v1/jobs';
    const failed = await sandbox.fetch(new Request(url, { headers: { ...KEY, 'Sandbox-Simulate': 'api_error' } }));
    expect(requestLogEntry('GET', url, failed, 1)).toMatchObject({ status: 500, fault: 'api_error' });
    const plain = await sandbox.fetch(new Request(url, { headers: KEY }));
    expect(Object.keys(requestLogEntry('GET', url, plain, 1))).toEqual(['method', 'path', 'status', 'ms', 'request_id']);
  });

  it('cuts a path past 200 characters, marking the cut, and never carries a header or a body', async () => {
    const sandbox = createSandbox();
    const long = `/v1/jobs?status=${'x'.repeat(300)}`;
    const response = await sandbox.fetch(
      new Request(`http://sandbox.test${long}`, { method: 'GET', headers: { ...KEY, Cookie: 'secret=1' } }),
    );
    const entry = requestLogEntry('GET', `http://sandbox.test${long}`, response, 1);
    expect(entry.path).toBe(`${long.slice(0, 200)}…`);
    expect(requestLogEntry('GET', `http://sandbox.test${long.slice(0, 200)}`, response, 1).path).toBe(long.slice(0, 200));
    const line = JSON.stringify(entry);
    expect(line).not.toContain('svc_test_sandbox_public');
    expect(line).not.toContain('secret=1');
    // A request with no ID on its answer (none the sandbox makes) logs null, not a made-up one.
    expect(requestLogEntry('GET', 'http://sandbox.test/x', new Response(null, { status: 204 }), 1).request_id).toBeNull();
  });
});
