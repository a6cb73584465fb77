// Issue #19, through the built command as a user runs it (dist/cli.js): flags that suggest, a
// host that cannot be bound, key tables whose errors teach, the banner, /docs and /openapi.json
// naming a key of the configured table that works, log lines with their query, and `trigger`'s
// hint when a receiver refuses the signature.
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { signPayload, verifySignature } from '../src/webhooks/signature.js';
import { CLI, type RunningServer, startCli } from './cli-server.js';

const run = promisify(execFile);
const servers: RunningServer[] = [];

afterEach(() => {
  for (const server of servers.splice(0)) server.stop();
});

/** Starts the command and resolves once its banner is printed whole (its last line names a key, or none). */
async function start(...args: string[]): Promise<RunningServer> {
  const server = await startCli(['--port', '0', ...args]);
  servers.push(server);
  for (let tries = 0; tries < 100 && !/^(Try: |Key: |No key )/m.test(server.output()); tries++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return server;
}

/** A command line that stops: its exit code and what it printed on stderr. */
async function refused(...args: string[]): Promise<{ code: number; stderr: string }> {
  const result = await run(process.execPath, [CLI, ...args], { timeout: 15_000 }).then(
    () => ({ code: 0, stderr: '' }),
    (error: { code: number; stderr: string }) => error,
  );
  return { code: result.code, stderr: result.stderr };
}

describe('flags', () => {
  it('suggests the flag a mistyped one was meant to be', async () => {
    const result = await refused('--prot', '9000');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/Unknown option '--prot'\. Did you mean --port\?/);
    expect((await refused('trigger', '--al', '--url', 'http://127.0.0.1:9/')).stderr).toMatch(/Did you mean --all\?/);
  });

  it('names the way a bad value came in: the flag, or the environment variable', async () => {
    const result = await refused('--rate-limit', 'fast', '--port', '0');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^--rate-limit must be a whole number of requests per second \(1 or more\) or "off"; received "fast"\./);
    const fromEnv = await run(process.execPath, [CLI, '--port', '0'], { env: { ...process.env, SANDBOX_RATE_LIMIT: 'fast' } }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(fromEnv).toMatchObject({ code: 2, stderr: expect.stringMatching(/^SANDBOX_RATE_LIMIT must be a whole number/) });
    // An empty --seed is a mistake, not the default seed; an empty variable is an unset one.
    expect((await refused('--seed', '', '--port', '0')).stderr).toMatch(/^--seed must not be empty/);
  });

  it('says which flag to change when the host is not an address of this machine', async () => {
    const result = await refused('--host', '999.1.1.1', '--port', '0');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/--host "999\.1\.1\.1" is not an address of this machine/);
    expect(result.stderr).not.toMatch(/getaddrinfo/);
  });

  it('logs each request with its path and query, never a header', async () => {
    const server = await start('--log');
    const sent = Date.now();
    const response = await fetch(`${server.origin}/v1/jobs?stauts=open`, { headers: { Authorization: 'Bearer svc_test_sandbox_public' } });
    expect(response.status).toBe(400);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Each line begins with the time, ISO 8601 in UTC to the millisecond.
    const requestLines = server
      .output()
      .split('\n')
      .filter((candidate) => / GET /.test(candidate));
    expect(requestLines[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z GET \/v1\/jobs\?stauts=open 400 \d+\.\dms req_/);
    // The time of the answer: after the request was sent, before the line was read.
    const logged = Date.parse(requestLines[0]?.split(' ')[0] ?? '');
    expect(logged).toBeGreaterThanOrEqual(sent - 1);
    expect(logged).toBeLessThanOrEqual(Date.now());
    expect(requestLines.join('\n')).not.toMatch(/svc_|Bearer/);
  });
});

describe('key tables', () => {
  it.each([
    [
      'a single object',
      '{"key":"svc_test_mine","account":"A","scopes":"*"}',
      /--keys is not a valid key table: it must be a JSON array of keys .*; received an object\. Put the one key in brackets/,
    ],
    [
      'a misspelt scope',
      '[{"key":"svc_test_mine","account":"A","scopes":["jobs:read","job:write"]}]',
      /entry \[0\]: scopes\[1\] must be one of the 16 scopes: clients:read, clients:write, .* or events:read; received "job:write"\. Did you mean "jobs:write"\?/,
    ],
    [
      'a misspelt field',
      '[{"key":"svc_test_mine","account":"A","scope":"*"}]',
      /entry \[0\]: unknown field scope\. Did you mean "scopes"\?/,
    ],
    [
      'an account in lower case',
      '[{"key":"svc_test_mine","account":"a","scopes":"*"}]',
      /entry \[0\]: account must be "A" or "B".*received "a"\. Did you mean "A"\?/,
    ],
    ['one scope not in an array', '[{"key":"svc_test_mine","account":"A","scopes":"jobs:read"}]', /Put it in an array: \["jobs:read"\]/],
    ['a live key', '[{"key":"svc_live_abc","account":"A","scopes":"*"}]', /entry \[0\]: key must begin with svc_test_/],
  ])('%s stops the server with a message that names the entry and field', async (_, table, message) => {
    const result = await refused('--keys', table, '--port', '0');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    // Never the validation library's words, and never the key itself (on Workers this is a public 500).
    expect(result.stderr).not.toMatch(/Invalid input|✖|svc_live_abc/);
  });

  it('a file that does not exist is named, with what to give instead', async () => {
    expect((await refused('--keys', './no-such-keys.json', '--port', '0')).stderr).toMatch(
      /cannot read the file \.\/no-such-keys\.json \(there is no such file\)/,
    );
  });
});

describe('the key the sandbox shows', () => {
  const table = JSON.stringify([
    { key: 'svc_test_team_old', account: 'A', scopes: '*', revoked: true },
    { key: 'svc_test_team_jobs', account: 'A', scopes: ['jobs:read', 'jobs:write'] },
    { key: 'svc_test_team_ci', account: 'B', scopes: ['clients:read', 'sites:read', 'jobs:read'] },
  ]);

  it('is the first key of the table that is not revoked, with the most scopes: banner, /docs and /openapi.json', async () => {
    const server = await start('--keys', table);
    const tryLine = server
      .output()
      .split('\n')
      .find((line) => line.startsWith('Try: ')) as string;
    expect(tryLine).toBe(`Try: curl -H 'Authorization: Bearer svc_test_team_ci' '${server.origin}/v1/jobs?limit=2'`);
    // The banner's curl works as printed.
    const { stdout } = await run('sh', ['-c', tryLine.slice('Try: '.length)]);
    expect(JSON.parse(stdout).data).toHaveLength(2);

    const script = await (await fetch(`${server.origin}/docs/init.js`)).text();
    expect(script).toContain(`preauthorizeApiKey('bearer', "svc_test_team_ci")`);
    const document = await (await fetch(`${server.origin}/openapi.json`)).json();
    expect(document.info.description).toContain('Authorization: Bearer svc_test_team_ci');
    expect(document.info.description).not.toContain('svc_test_sandbox_public');
    // Its examples are records of that key's account, so "try it" with them finds them.
    const example = document.paths['/v1/jobs/{id}'].get.parameters.find((parameter: { name: string }) => parameter.name === 'id').example;
    const record = await fetch(`${server.origin}/v1/jobs/${example}`, { headers: { Authorization: 'Bearer svc_test_team_ci' } });
    expect(record.status).toBe(200);
  });

  it('is none when every key is revoked, and the banner, /docs and /openapi.json say so', async () => {
    const server = await start('--keys', '[{"key":"svc_test_team_old","account":"A","scopes":"*","revoked":true}]');
    expect(server.output()).toMatch(/No key of the key table can be used/);
    expect(server.output()).not.toMatch(/Try: curl/);
    expect(await (await fetch(`${server.origin}/docs`)).text()).toMatch(/No key of this sandbox(&#39;|')s key table can be used/);
    expect(await (await fetch(`${server.origin}/docs/init.js`)).text()).not.toContain('preauthorizeApiKey(');
    expect((await (await fetch(`${server.origin}/openapi.json`)).json()).info.description).toMatch(
      /No key of this sandbox's key table can be used/,
    );
  });
});

describe('webhook signatures', () => {
  it('verifySignature without a secret throws a TypeError saying what to pass', () => {
    const header = signPayload('{}', 'whsec_x');
    for (const secret of [undefined, '']) {
      expect(() => verifySignature('{}', header, secret as unknown as string)).toThrow(TypeError);
      expect(() => verifySignature('{}', header, secret as unknown as string)).toThrow(/signing secret as its third argument: the whsec_/);
    }
  });

  it('trigger says the signature may have been refused when the receiver answers 401, once', async () => {
    const receiver: Server = createServer((_, response) => response.writeHead(401).end());
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
      const result = await run(process.execPath, [
        CLI,
        'trigger',
        'job.created',
        '--url',
        url,
        '--attempts',
        '2',
        '--backoff',
        '0.01',
      ]).catch((error: { code: number; stdout: string }) => error);
      expect(result).toMatchObject({ code: 1 });
      expect(result.stdout).toMatch(/^Signing secret: whsec_\S+ \(a new one/m);
      expect(
        result.stdout.match(/the receiver may have refused the signature; it must verify with the signing secret printed above/g),
      ).toHaveLength(1);
    } finally {
      receiver.close();
    }
  });
});
