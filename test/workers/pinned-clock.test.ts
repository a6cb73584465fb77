// The pinned clock on Workers (issue #16): the script of test/pinned-clock/script.ts through the
// Worker's own fetch handler in workerd answers the very bytes Node answers, kept in
// script.golden.json (test/pinned-clock.test.ts checks Node against the same file).
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import worker from '../../src/worker.js';
import golden from '../pinned-clock/script.golden.json';
import { runScript } from '../pinned-clock/script.js';

/** The Worker with rate limiting off, as the Node side runs the script. */
async function fetchWorker(request: Request, vars: Record<string, string> = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(request as Parameters<typeof worker.fetch>[0], { ...env, SANDBOX_RATE_LIMIT: 'off', ...vars }, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

describe('the pinned clock on Workers', () => {
  it('with Sandbox-Clock, the script answers the same status, headers, body bytes and Request-Id as on Node', async () => {
    expect(await runScript((request) => fetchWorker(request))).toEqual(golden);
  });

  it('SANDBOX_CLOCK pins every request the same way', async () => {
    const answers = await runScript((request) => fetchWorker(request, { SANDBOX_CLOCK: '2026-03-02T17:00:00Z' }), undefined, false);
    // The Idempotency-Key of the script was used by the first test against the shared store: the
    // create is then a replay of the same bytes, which only its header tells apart.
    const withoutReplayFlag = answers.map((answer) => {
      const { 'idempotent-replayed': _replayed, ...headers } = answer.headers;
      return { ...answer, headers };
    });
    const goldenWithoutReplayFlag = golden.map((answer) => {
      const { 'idempotent-replayed': _replayed, ...headers } = answer.headers as Record<string, string | undefined>;
      return { ...answer, headers };
    });
    expect(withoutReplayFlag).toEqual(goldenWithoutReplayFlag);
  });

  it('a bad Sandbox-Clock is a 400 naming the header', async () => {
    const response = await fetchWorker(
      new Request('https://sandbox.example/v1/jobs', {
        headers: { Authorization: 'Bearer svc_test_sandbox_public', 'Sandbox-Clock': 'now' },
      }),
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { param: string } }).error.param).toBe('Sandbox-Clock');
  });
});
