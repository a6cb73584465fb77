// Random faults on the built server (dist/cli.js): a bad --faults or SANDBOX_FAULTS stops it at
// start, naming the one that gave it; a good one is announced and acts on /v1 answers. The
// in-process side is test/faults/random.test.ts.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CLI, startCli } from '../cli-server.js';

const run = promisify(execFile);
const KEY = 'svc_test_sandbox_public';

describe('SANDBOX_FAULTS on the built server', () => {
  it('a bad --faults or SANDBOX_FAULTS stops the server at start (exit 2), naming the one that gave it', async () => {
    for (const [args, env, name] of [
      [['--faults', 'api_eror=0.1'], {}, '--faults'],
      [[], { SANDBOX_FAULTS: 'api_eror=0.1' }, 'SANDBOX_FAULTS'],
    ] as const) {
      const failure = await run(process.execPath, [CLI, '--port', '0', ...args], { env: { ...process.env, ...env } }).then(
        () => undefined,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failure?.code).toBe(2);
      expect(failure?.stderr.startsWith(`${name} must be a comma list`)).toBe(true);
      expect(failure?.stderr).toMatch(/Did you mean "api_error"\?/);
    }
  });

  it('the built server says so at start, and its /v1 answers carry the faults', async () => {
    const server = await startCli(['--port', '0', '--rate-limit', 'off', '--faults', 'api_error=1']);
    try {
      const response = await fetch(`${server.origin}/v1/jobs?limit=1`, { headers: { Authorization: `Bearer ${KEY}` } });
      expect(response.status).toBe(500);
      expect(response.headers.get('Sandbox-Fault')).toBe('api_error');
      expect((await fetch(`${server.origin}/health`)).status).toBe(200);
      // The banner is printed at once when the server listens, before any answer.
      expect(server.output()).toMatch(/Random faults on \/v1 requests: api_error=1/);
    } finally {
      server.stop();
    }
  });
});
