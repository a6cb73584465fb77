// Issue #36: what the sandbox really delivers over HTTP validates against the `webhooks` of its
// /openapi.json, body and Service-Signature header: every type from `trigger --all`, and the events
// of writes from a server started with --webhook-url. test/openapi-webhooks.test.ts checks the
// document itself, in-process.
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, type RunningServer, startCli } from './cli-server.js';
import { PUBLIC_KEY } from './helpers.js';
import { until } from './recipe-processes.js';
import { EVENT_TYPES as TYPES } from './reference/resources.js';

const run = promisify(execFile);
const SECRET = 'whsec_webhooksDocument';

type Json = Record<string, unknown>;
interface Delivery {
  body: string;
  signature: string | undefined;
}

const deliveries: Delivery[] = [];
const receiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    deliveries.push({
      body: Buffer.concat(chunks).toString('utf8'),
      signature: request.headers['service-signature'] as string | undefined,
    });
    response.writeHead(200).end();
  });
});
let url = '';
let sandbox: RunningServer;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
let document: { webhooks: Record<string, Json>; components: { parameters: Record<string, { schema: { pattern: string } }> } };

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
  sandbox = await startCli(['--port', '0', '--rate-limit', 'off', '--webhook-url', url, '--webhook-secret', SECRET]);
  document = (await (await fetch(`${sandbox.origin}/openapi.json`)).json()) as typeof document;
  ajv.addSchema(document, 'https://sandbox.test/openapi.json');
});
afterAll(() => {
  sandbox?.stop();
  receiver.closeAllConnections();
  receiver.close();
});

/** Valid by the webhook of its type in the served document: the body, and the header by its pattern. */
function expectValid(delivery: Delivery): string {
  const event = JSON.parse(delivery.body) as { type: string };
  const validate = ajv.compile({
    $ref: `https://sandbox.test/openapi.json#/webhooks/${event.type}/post/requestBody/content/application~1json/schema`,
  });
  expect(validate(event), `${event.type}: ${JSON.stringify(validate.errors)}`).toBe(true);
  expect(delivery.signature).toMatch(new RegExp(document.components.parameters['Service-Signature']?.schema.pattern as string));
  expect(delivery.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  return event.type;
}

describe('real deliveries validate against the webhooks of /openapi.json', () => {
  it('every type, from trigger --all', async () => {
    deliveries.length = 0;
    await run(process.execPath, [CLI, 'trigger', '--all', '--url', url, '--secret', SECRET]);
    expect(deliveries.map(expectValid)).toEqual(TYPES);
  });

  it('the events of writes: job.created, job.scheduled, container.received', async () => {
    deliveries.length = 0;
    const write = (method: string, path: string, body: Json) =>
      fetch(`${sandbox.origin}${path}`, {
        method,
        headers: { Authorization: `Bearer ${PUBLIC_KEY}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await write('POST', '/v1/jobs', { type: 'ci_pickup', client: 'cli_seII9pzPSgmmJJ', site: 'site_boDWBFERDT5aI9' })).status).toBe(
      201,
    );
    const scheduled = await write('PATCH', '/v1/jobs/job_EUcQtBQSE967gU', {
      scheduled_for: '2026-04-01',
      window: { start: '08:00', end: '12:00' },
    });
    expect(scheduled.status).toBe(200);
    expect((await write('PATCH', '/v1/containers/cont_Q3sQ79EWy5DrOP', { status: 'received' })).status).toBe(200);
    await until(() => deliveries.length >= 3, 'three events of writes', 400);
    expect(deliveries.map(expectValid).sort()).toEqual(['container.received', 'job.created', 'job.scheduled']);
  });
});
