// Events from writes on Workers (issue #17): the delivery runs after the answer, inside the
// request's waitUntil, signed with SANDBOX_WEBHOOK_SECRET. The receiver here stands in for the
// network: the Worker's outgoing fetch is spied on (test/worker-parity.test.ts delivers to a real
// loopback receiver from the deployed bundle).
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import worker from '../../src/worker.js';
import { verifySignature } from '../../src/webhooks/signature.js';

const URL = 'https://receiver.example/webhooks';
const SECRET = 'whsec_workersEventsTestSecret';

afterEach(() => {
  vi.restoreAllMocks();
});

async function write(method: string, path: string, body: unknown, vars: Record<string, string>) {
  const ctx = createExecutionContext();
  const request = new Request(`https://sandbox.example${path}`, {
    method,
    headers: {
      Authorization: 'Bearer svc_test_sandbox_public',
      'Content-Type': 'application/json',
      'Sandbox-Clock': '2026-03-02T17:00:00Z',
    },
    body: JSON.stringify(body),
  });
  const response = await worker.fetch(request as Parameters<typeof worker.fetch>[0], { ...env, SANDBOX_RATE_LIMIT: 'off', ...vars }, ctx);
  const text = await response.text();
  await waitOnExecutionContext(ctx);
  return { status: response.status, text };
}

describe('events from writes on Workers', () => {
  it('PATCH of a container to received delivers container.received after the answer, signed', async () => {
    const sent: { url: string; body: string; signature: string | null }[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      sent.push({ url: String(input), body: String(init?.body), signature: new Headers(init?.headers).get('Service-Signature') });
      return new Response(null, { status: 204 });
    });
    const answer = await write(
      'PATCH',
      '/v1/containers/cont_Q3sQ79EWy5DrOP',
      { status: 'received' },
      {
        SANDBOX_WEBHOOK_URL: URL,
        SANDBOX_WEBHOOK_SECRET: SECRET,
      },
    );
    expect(answer.status).toBe(200);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.url).toBe(URL);
    expect(verifySignature(sent[0]?.body ?? '', sent[0]?.signature, SECRET)).toBe(true);
    expect(JSON.parse(sent[0]?.body ?? '{}')).toMatchObject({
      type: 'container.received',
      created_at: '2026-03-02T17:00:00Z',
      data: { object: JSON.parse(answer.text) },
    });
  });

  it('a write that emits nothing, or a type filtered out, sends nothing', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(null, { status: 204 }));
    const vars = { SANDBOX_WEBHOOK_URL: URL, SANDBOX_WEBHOOK_SECRET: SECRET, SANDBOX_WEBHOOK_EVENTS: 'job.scheduled' };
    expect((await write('POST', '/v1/clients', { name: 'Quiet', kind: 'laboratory' }, vars)).status).toBe(201);
    expect(
      (await write('POST', '/v1/jobs', { type: 'ci_pickup', client: 'cli_seII9pzPSgmmJJ', site: 'site_boDWBFERDT5aI9' }, vars)).status,
    ).toBe(201);
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
