// Strangers on a shared key through workerd's real HTTP (issue #35; SANDBOX.md, "Shared keys" and
// "The client's address"): the Worker as `wrangler deploy --dry-run` bundles it, behind Miniflare's
// HTTP server on 127.0.0.1, reached over a socket as a client reaches it. Cloudflare's edge names
// each client by CF-Connecting-IP; three values are three strangers on the public key.
import { request } from 'node:http';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DeployedWorker, deployedWorker } from './deployed-worker.js';

const PUBLIC_KEY = 'svc_test_sandbox_public';
const STRANGERS = ['198.51.100.2', '198.51.100.3', '198.51.100.4'] as const;
const [FIRST, SECOND, THIRD] = STRANGERS;
const TRY_IT = { url: 'https://example.com/hooks', events: ['*'] };
const OTHER_BODY = { url: 'https://example.com/other-hooks', events: ['job.created'] };

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

let deployed: DeployedWorker | undefined;
/** One Worker without a rate limit, one with a limit of 1 a second. */
const workers: Miniflare[] = [];
let origin: string;
let limitedOrigin: string;

async function startWorker(worker: DeployedWorker, vars: Record<string, string>): Promise<string> {
  const mf = new Miniflare({ ...worker.options(vars), host: '127.0.0.1', port: 0 });
  workers.push(mf);
  return (await mf.ready).origin;
}

beforeAll(async () => {
  deployed = await deployedWorker();
  origin = await startWorker(deployed, { SANDBOX_RATE_LIMIT: 'off' });
  limitedOrigin = await startWorker(deployed, { SANDBOX_RATE_LIMIT: '1' });
}, 120_000);

afterAll(async () => {
  for (const mf of workers) await mf.dispose();
  await deployed?.remove();
});

/** One request over a socket of its own; header values go out as the UTF-8 bytes of the text. */
function send(
  to: string,
  { method = 'GET', path, body, headers = {} }: { method?: string; path: string; body?: unknown; headers?: Record<string, string> },
): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const bytes = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, Buffer.from(value).toString('latin1')]));
  return new Promise((resolve, reject) => {
    const outgoing = request(
      new URL(path, to),
      {
        method,
        agent: false,
        headers: {
          Authorization: `Bearer ${PUBLIC_KEY}`,
          ...(payload === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...bytes,
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

function tryIt(from: string, idempotencyKey: string, body: unknown = TRY_IT): Promise<Answer> {
  return send(origin, {
    method: 'POST',
    path: '/v1/webhook_endpoints',
    body,
    headers: { 'Idempotency-Key': idempotencyKey, 'CF-Connecting-IP': from },
  });
}

function expectFresh(answer: Answer, what: string): void {
  expect(answer.status, `${what}: ${answer.text}`).toBe(201);
  expect(answer.headers['idempotent-replayed'], what).toBeUndefined();
}

describe('three strangers on the public key, through workerd over HTTP', () => {
  it("never see each other's Idempotency-Key: no replay, no 409; a retry from the same address replays", async () => {
    // A key of its own per run: the Durable Objects of this Miniflare are fresh, but say so.
    const key = `try-it-1-${crypto.randomUUID()}`;
    const first = await tryIt(FIRST, key);
    expectFresh(first, 'the first stranger');
    expectFresh(await tryIt(SECOND, key, OTHER_BODY), 'the second stranger, another body');
    const third = await tryIt(THIRD, key);
    expectFresh(third, 'the third stranger, the same body');
    expect(JSON.parse(third.text).secret).not.toBe(JSON.parse(first.text).secret);
    const retry = await tryIt(FIRST, key);
    expect(retry.status, retry.text).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.text).toBe(first.text);
    const conflict = await tryIt(FIRST, key, OTHER_BODY);
    expect(conflict.status, conflict.text).toBe(409);
  });

  it('each address has its own rate-limit bucket', async () => {
    const get = (from: string) => send(limitedOrigin, { path: '/v1/jobs?limit=1', headers: { 'CF-Connecting-IP': from } });
    let spent: Answer | undefined;
    for (let tries = 0; tries < 20 && spent === undefined; tries++) {
      const answer = await get(FIRST);
      if (answer.status === 429) spent = answer;
    }
    expect(spent === undefined ? undefined : JSON.parse(spent.text).error.code).toBe('rate_limited');
    for (const from of [SECOND, THIRD]) {
      const answer = await get(from);
      expect(answer.status, `${from}: ${answer.text}`).toBe(200);
    }
  });

  it('a non-ASCII Sandbox-Simulate is quoted in the 400 as sent (UTF-8)', async () => {
    for (const sent of ['délai=5', 'задержка']) {
      const answer = await send(origin, { path: '/v1/jobs', headers: { 'Sandbox-Simulate': sent } });
      expect(answer.status, answer.text).toBe(400);
      expect(JSON.parse(answer.text).error.message).toContain(`; received ${JSON.stringify(sent)}: `);
    }
  });
});
