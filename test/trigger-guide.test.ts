// Issue #25: the toolkit guide's three `trigger` commands, run as written (against the built
// command, the receiver's port changed), each deliver to a receiver that verifies the reference's
// signature with the secret the guide's receiver uses; none is refused.
import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readmeExample } from './readme.js';

const run = promisify(execFile);
const SECRET = 'whsec_yourSecret';
const verified: string[] = [];
const refused: string[] = [];

// The reference's signature: `t=<unix time>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`.
const receiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks).toString();
    const [, t, v1] = String(request.headers['service-signature']).match(/^t=(\d+),v1=([0-9a-f]{64})$/) ?? [];
    const expected = createHmac('sha256', SECRET).update(`${t}.${body}`).digest('hex');
    const ok = v1 === expected;
    (ok ? verified : refused).push(ok ? (JSON.parse(body) as { id: string }).id : body.slice(0, 80));
    response.writeHead(ok ? 200 : 400).end();
  });
});

beforeAll(() => new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve)));
afterAll(() => receiver.close());

describe("the toolkit guide's trigger commands", () => {
  it('each names the secret, and every event is delivered and verifies', async () => {
    const commands = readmeExample('trigger')
      .split('\n')
      .map((line) => line.replace(/\s+#.*$/, '').trim())
      .filter((line) => line !== '');
    expect(commands).toHaveLength(3);
    const origin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    for (const command of commands) {
      expect(command).toContain(`--secret ${SECRET}`);
      const { stdout } = await run('sh', ['-ec', command.replace('http://localhost:4242', origin)]);
      expect(stdout).not.toMatch(/refused the signature|not delivered/);
    }
    expect(refused).toEqual([]);
    // One job.created, one of each of the 12 types, and the sample data's evt_v8VfP7kAKigkmW.
    expect(verified).toHaveLength(14);
    expect(verified.at(-1)).toBe('evt_v8VfP7kAKigkmW');
  }, 60_000);
});
