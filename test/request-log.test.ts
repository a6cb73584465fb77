// The operator's line per request on Node (`--log`) carries the fields of the Workers line
// (docs/workers.md, "The operator's log"): a failure made on purpose says which, so nobody chases
// it as a real one. test/workerd-http/workerd-http.test.ts checks the Workers line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startCli } from './cli-server.js';

let server: RunningServer;

beforeAll(async () => {
  server = await startCli(['--port', '0', '--rate-limit', 'off', '--log']);
});

afterAll(() => server?.stop());

describe('--log', () => {
  it('adds the fault of a failure made on purpose, and nothing to an answer without one', async () => {
    const headers = { Authorization: 'Bearer svc_test_sandbox_public', 'Content-Type': 'application/json' };
    const failed = await fetch(`${server.origin}/v1/jobs`, {
      method: 'POST',
      headers: { ...headers, 'Sandbox-Simulate': 'api_error' },
      body: JSON.stringify({ type: 'ci_pickup', client: 'cli_seII9pzPSgmmJJ', site: 'site_boDWBFERDT5aI9' }),
    });
    expect(failed.status).toBe(500);
    const read = await fetch(`${server.origin}/v1/jobs?limit=1`, { headers });
    expect(read.status).toBe(200);
    const ids = [failed.headers.get('Request-Id'), read.headers.get('Request-Id')];
    const lines = () =>
      server
        .output()
        .split('\n')
        .filter((line) => ids.some((id) => id !== null && line.includes(id)));
    // The lines are written as the answers go: wait for both (no time bound).
    while (lines().length < 2) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lines()[0]).toMatch(new RegExp(`Z POST /v1/jobs 500 [\\d.]+ms ${ids[0]} fault=api_error$`));
    expect(lines()[1]).toMatch(new RegExp(`Z GET /v1/jobs\\?limit=1 200 [\\d.]+ms ${ids[1]}$`));
  });
});
