// Issue #25: a delivery the sandbox will never make is said. Stopped (SIGTERM) while a receiver
// holds a delivery unanswered, the command names the abandoned event; an event given up on after
// a 400 or 401 says, as `trigger` does, that the receiver may have refused the signature.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookDispatcher } from '../src/webhooks/dispatcher.js';
import { startCli } from './cli-server.js';

/** A receiver on loopback: each request is counted and answered by `answer` (or left hanging). */
function receiver(answer: ((status: (code: number) => void) => void) | undefined): Server & { hits: number } {
  const server = createServer((request, response) => {
    server.hits++;
    request.resume();
    answer?.((code) => response.writeHead(code).end());
  }) as Server & { hits: number };
  server.hits = 0;
  return server;
}

const hanging = receiver(undefined);
const refusing = receiver((status) => status(401));

beforeAll(async () => {
  for (const server of [hanging, refusing]) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterAll(() => {
  hanging.closeAllConnections();
  hanging.close();
  refusing.close();
});

const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;

describe('deliveries never made are said', () => {
  it('SIGTERM while a delivery is in flight: the command names the abandoned event before it exits', async () => {
    const server = await startCli([
      '--port',
      '0',
      '--rate-limit',
      'off',
      '--webhook-url',
      urlOf(hanging),
      '--webhook-secret',
      'whsec_abandonTest',
    ]);
    try {
      const created = await fetch(`${server.origin}/v1/jobs`, {
        method: 'POST',
        headers: { Authorization: 'Bearer svc_test_sandbox_public', 'Content-Type': 'application/json' },
        body: JSON.stringify({ type: 'ci_pickup', client: 'cli_seII9pzPSgmmJJ', site: 'site_boDWBFERDT5aI9' }),
      });
      expect(created.status).toBe(201);
      for (let tries = 0; hanging.hits === 0 && tries < 100; tries++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(hanging.hits, 'the delivery reached the receiver').toBe(1);
      const exited = once(server.child, 'exit');
      server.child.kill('SIGTERM');
      const timer = setTimeout(() => server.child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      expect(server.output()).toMatch(
        new RegExp(
          `webhook: stopping with 1 event not delivered to ${urlOf(hanging).replaceAll('.', '\\.')}, abandoned: job\\.created evt_\\w+`,
        ),
      );
    } finally {
      server.stop();
    }
  }, 30_000);

  it('an event given up on after a 401 says the receiver may have refused the signature, and which secret to verify with', async () => {
    const warnings: string[] = [];
    const dispatcher = new WebhookDispatcher(
      { url: urlOf(refusing), secret: 'whsec_givenUpTest', events: '*' },
      { attempts: 2, backoffMs: 10, warn: (message) => warnings.push(message) },
    );
    await dispatcher.emit({ id: 'evt_givenUpTest0001', type: 'job.created', body: '{"id":"evt_givenUpTest0001"}' });
    expect(refusing.hits).toBe(2);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(
      `webhook: gave up on job.created evt_givenUpTest0001 after 2 attempts to ${urlOf(refusing)} (answered 401)`,
    );
    expect(warnings[0]).toMatch(/may have refused the signature.*--webhook-secret.*SANDBOX_WEBHOOK_SECRET/);
    // Nothing left: a shutdown now abandons nothing and says nothing.
    dispatcher.reportAbandoned();
    expect(warnings).toHaveLength(1);
  });
});
