// Events from writes (issue #17; SANDBOX.md, "Events from writes") from the built server: the
// flags that point it at a receiver, its log, and its stop. Apart from the in-process tests of
// events-from-writes.test.ts because it starts processes, which the mutation run leaves out
// (vitest.mutate.config.ts).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifySignature } from '../../src/index.js';
import { type RunningServer, startCli } from '../cli-server.js';
import { type Receiver, startReceiver } from './receiver.js';

const SECRET = 'whsec_eventsFromWritesTestSecret';
const JOB_BODY = { type: 'ci_pickup', client: 'cli_seII9pzPSgmmJJ', site: 'site_boDWBFERDT5aI9' };

let receiver: Receiver;
beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(() => receiver.close());

describe('the built server', () => {
  const servers: RunningServer[] = [];
  afterAll(() => {
    for (const server of servers) server.stop();
  });

  /** The built command with rate limiting off, once its banner has said how it signs. */
  async function start(args: string[]): Promise<RunningServer> {
    const server = await startCli(['--port', '0', '--rate-limit', 'off', ...args]);
    servers.push(server);
    for (let tries = 0; tries < 100 && !server.output().includes('signing secret'); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return server;
  }

  it('--webhook-url with --log: the made secret is printed, the delivery verifies, each attempt is logged', async () => {
    receiver.answers.push(503);
    const server = await start(['--webhook-url', receiver.url, '--log']);
    const secret = server.output().match(/secret: (whsec_\w+)/)?.[1] ?? '';
    expect(secret).toMatch(/^whsec_/);
    const response = await fetch(`${server.origin}/v1/jobs`, {
      method: 'POST',
      headers: { Authorization: 'Bearer svc_test_sandbox_public', 'Content-Type': 'application/json' },
      body: JSON.stringify(JOB_BODY),
    });
    const answer = await response.text();
    const [, delivery] = await receiver.waitFor(2);
    expect(verifySignature(delivery?.body ?? '', delivery?.signature, secret)).toBe(true);
    expect(delivery?.body).toContain(answer);
    expect(delivery?.userAgent).toMatch(/^waste-operations-sandbox\//);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.output()).toMatch(/webhook job\.created evt_\w+ → 503 in \d+ ms \(attempt 1\)/);
    expect(server.output()).toMatch(/webhook job\.created evt_\w+ → 200 in \d+ ms \(attempt 2\)/);
  });

  it('SIGTERM does not wait for a receiver that does not answer: the delivery is abandoned, and said', async () => {
    // A port nothing answers on in time: a receiver that accepts and never replies.
    const { createServer } = await import('node:net');
    const silent = createServer(() => {}).listen(0, '127.0.0.1');
    await new Promise((resolve) => silent.once('listening', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const server = await start(['--webhook-url', `http://127.0.0.1:${port}/`, '--webhook-secret', SECRET]);
      await fetch(`${server.origin}/v1/jobs`, {
        method: 'POST',
        headers: { Authorization: 'Bearer svc_test_sandbox_public', 'Content-Type': 'application/json' },
        body: JSON.stringify(JOB_BODY),
      });
      const exited = new Promise<number | null>((resolve) => server.child.once('exit', resolve));
      server.child.kill('SIGTERM');
      // The delivery would go on for a minute (5 attempts of 10 s): the server stopped on its
      // grace instead, and said which event it abandoned. No clock is read here.
      expect(await exited).toBe(0);
      expect(server.output()).toMatch(
        /webhook: stopping with 1 event not delivered to http:\/\/127\.0\.0\.1:\d+\/, abandoned: job\.created evt_\w+/,
      );
    } finally {
      silent.close();
    }
  });

  it.each([
    [['--webhook-url', 'localhost:4242'], {}, /^--webhook-url must be an absolute http:\/\/ or https:\/\/ URL/],
    [
      ['--webhook-url', 'http://127.0.0.1:4242/', '--webhook-secret', 'secret'],
      {},
      /^--webhook-secret must be a signing secret beginning with whsec_/,
    ],
    [
      ['--webhook-url', 'http://127.0.0.1:4242/', '--webhook-events', 'job.created,job.shceduled'],
      {},
      /^--webhook-events must be one of the types writes emit: job\.created, job\.scheduled, container\.received; received "job\.shceduled"\. Did you mean "job\.scheduled"\?/,
    ],
    // A type that exists but that no write emits would promise events that never come.
    [
      ['--webhook-url', 'http://127.0.0.1:4242/', '--webhook-events', 'invoice.paid'],
      {},
      /^--webhook-events must be one of the types writes emit/,
    ],
    [['--webhook-secret', SECRET], {}, /^--webhook-secret is set but --webhook-url is not/],
    [[], { SANDBOX_WEBHOOK_SECRET: SECRET }, /^SANDBOX_WEBHOOK_SECRET is set but SANDBOX_WEBHOOK_URL is not/],
    [[], { SANDBOX_WEBHOOK_URL: 'ftp://x' }, /^SANDBOX_WEBHOOK_URL must be an absolute http/],
  ])('%j %j stops the server at start, naming the flag or variable that gave the value', async (args, env, message) => {
    const failed = await promisify(execFile)(process.execPath, ['dist/cli.js', '--port', '0', ...args], {
      env: { ...process.env, ...env },
    }).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 2 });
    expect((failed as { stderr: string }).stderr).toMatch(message);
  });
});
