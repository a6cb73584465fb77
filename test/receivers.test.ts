// Issue #36: the receivers of docs/webhook-signatures.md, run as the files they are
// (docs/receivers/receiver.mjs and receiver.py, which the guide quotes verbatim): each against
// every test vector (docs/receivers/vectors.json), then as a server against real deliveries of the
// sandbox: the event of a write (--webhook-url), `trigger --all` and `check-receiver`. Also the
// guide's OpenSSL line and its CI recipe, as written.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CLI, freePort, type RunningServer, startCli } from './cli-server.js';
import { readmeExample } from './readme.js';
import { until } from './recipe-processes.js';
import { VECTORS, VECTORS_PATH } from './webhooks/vectors.js';

import { EVENT_TYPES } from './reference/resources.js';
const run = promisify(execFile);
const NODE_RECEIVER = 'docs/receivers/receiver.mjs';
const PYTHON_RECEIVER = 'docs/receivers/receiver.py';
const SECRET = 'whsec_receiverGuideSecret01';
const PUBLIC_KEY = 'svc_test_sandbox_public';

const children: ChildProcess[] = [];
const servers: RunningServer[] = [];
/** Process groups of shell lines that leave a process in the background (`nohup … &`). */
const groups: number[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  for (const server of servers) server.stop();
  for (const group of groups) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // The group has ended already.
    }
  }
});

interface RunningReceiver {
  url: string;
  output(): string;
}

/** Starts a receiver file as the guide says (WEBHOOK_SECRET, PORT), on a free port; resolves once it listens. */
function startReceiver(command: string, file: string, secret = SECRET): Promise<RunningReceiver> {
  const child = spawn(command, [file], {
    env: { ...process.env, WEBHOOK_SECRET: secret, PORT: '0', PYTHONDONTWRITEBYTECODE: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`${file} did not start within 20 s:\n${output}`)), 20_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const origin = output.match(/listening on (http:\/\/127\.0\.0\.1:\d+)\//)?.[1];
      if (origin !== undefined) {
        clearTimeout(timer);
        resolvePromise({ url: `${origin}/webhooks`, output: () => output });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code}:\n${output}`)));
  });
}

/** signatureProblem of the Node receiver, for each vector: null when it accepts. */
async function nodeVerdicts(): Promise<{ signing: (string | null)[]; verifying: (string | null)[] }> {
  const receiver = (await import(/* @vite-ignore */ pathToFileURL(resolve(NODE_RECEIVER)).href)) as {
    signatureProblem: (body: Buffer, header: string | null, secret: string, now: number) => string | null;
  };
  return {
    signing: VECTORS.signing.map((vector) =>
      receiver.signatureProblem(Buffer.from(vector.body_hex, 'hex'), vector.header, vector.secret, vector.t),
    ),
    verifying: VECTORS.verifying.map((vector) =>
      receiver.signatureProblem(Buffer.from(vector.body, 'utf8'), vector.header, vector.secret, vector.now),
    ),
  };
}

/** signature_problem of the Python receiver, for each vector, run by python3 itself. */
async function pythonVerdicts(): Promise<{ signing: (string | null)[]; verifying: (string | null)[] }> {
  const script = `
import json, sys
sys.path.insert(0, "docs/receivers")
import receiver
vectors = json.load(open(${JSON.stringify(VECTORS_PATH)}, encoding="utf-8"))
print(json.dumps({
  "signing": [receiver.signature_problem(bytes.fromhex(v["body_hex"]), v["header"], v["secret"], v["t"]) for v in vectors["signing"]],
  "verifying": [receiver.signature_problem(v["body"].encode("utf-8"), v["header"], v["secret"], v["now"]) for v in vectors["verifying"]],
}))
`;
  const { stdout } = await run('python3', ['-c', script], { env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } });
  return JSON.parse(stdout);
}

describe('the guide', () => {
  it('quotes both receivers verbatim', () => {
    expect(readmeExample('receiver-node')).toBe(readFileSync(NODE_RECEIVER, 'utf8'));
    expect(readmeExample('receiver-python')).toBe(readFileSync(PYTHON_RECEIVER, 'utf8'));
  });

  it("its OpenSSL line prints the first vector's v1: any HMAC-SHA256 gives it", async () => {
    const [first] = VECTORS.signing;
    const block = readmeExample('vector-openssl');
    expect(block).toContain(`'${first?.t}.${first?.body}'`);
    expect(block).toContain(`-hmac '${first?.secret}'`);
    const { stdout } = await run('sh', ['-ec', block]);
    expect(stdout.trim()).toMatch(new RegExp(`= ${first?.header.replace(/^t=\d+,v1=/, '')}$`));
  });
});

describe.each([
  ['Node', nodeVerdicts],
  ['Python', pythonVerdicts],
])('the %s receiver against the test vectors', (_, verdicts) => {
  it('accepts every signing vector at its own time, and exactly the verifying vectors marked valid', async () => {
    const { signing, verifying } = await verdicts();
    expect(signing).toEqual(VECTORS.signing.map(() => null));
    const accepted = VECTORS.verifying.map((vector, index) => `${vector.name}: ${verifying[index] === null ? 'accepted' : 'refused'}`);
    expect(accepted).toEqual(VECTORS.verifying.map((vector) => `${vector.name}: ${vector.valid ? 'accepted' : 'refused'}`));
  });
});

describe.each([
  ['Node', process.execPath, NODE_RECEIVER],
  ['Python', 'python3', PYTHON_RECEIVER],
])('the %s receiver as a server, against real deliveries of the sandbox', (_, command, file) => {
  it('verifies the job.created of a write sent by --webhook-url, then every type from trigger --all, and passes check-receiver', async () => {
    const receiver = await startReceiver(command, file);
    const sandbox = await startCli(['--port', '0', '--rate-limit', 'off', '--webhook-url', receiver.url, '--webhook-secret', SECRET]);
    servers.push(sandbox);
    const created = await fetch(`${sandbox.origin}/v1/jobs`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${PUBLIC_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ type: 'ci_pickup', client: 'cli_seII9pzPSgmmJJ', site: 'site_boDWBFERDT5aI9' }),
    });
    expect(created.status).toBe(201);
    await until(() => /verified job\.created evt_\w+/.test(receiver.output()), `${file}: the job.created of the write`, 400);

    const trigger = await run(process.execPath, [CLI, 'trigger', '--all', '--url', receiver.url, '--secret', SECRET]);
    expect(trigger.stdout).toMatch(/12 of 12 events delivered/);
    await until(() => EVENT_TYPES.every((type) => receiver.output().includes(`verified ${type} evt_`)), `${file}: one of each type`, 400);
    expect(receiver.output()).not.toMatch(/refused/);

    const check = await run(process.execPath, [CLI, 'check-receiver', receiver.url, '--secret', SECRET]);
    expect(check.stdout).toMatch(/All 8 checks passed\./);
    // Its own log: six refusals with their reasons, and the duplicate answered without the work again.
    expect(receiver.output()).toMatch(/refused: t is 300 seconds old/);
    expect(receiver.output()).toMatch(/refused: t is in the future/);
    expect(receiver.output()).toMatch(/refused: no Service-Signature header/);
    expect(receiver.output()).toMatch(/duplicate job\.created evt_\w+/);
  }, 90_000);
});

describe("the guides' check-receiver lines", () => {
  it.each([
    ['check-receiver', 'whsec_yourSecret'],
    ['events-check-receiver', 'whsec_localReceiverSecret'],
  ])('%s runs as written against the Node receiver verifying with its secret, exit code 0', async (example, secret) => {
    const line = readmeExample(example).trim();
    expect(line).toBe(`node dist/cli.js check-receiver http://127.0.0.1:4242/webhooks --secret ${secret}`);
    const receiver = await startReceiver(process.execPath, NODE_RECEIVER, secret);
    const { stdout } = await run('sh', ['-ec', line.replace('http://127.0.0.1:4242/webhooks', receiver.url)]);
    expect(stdout).toMatch(/All 8 checks passed\./);
  });
});

describe('the CI recipe "Prove your receiver in CI"', () => {
  it("runs as written: the Node receiver in the background, then check-receiver from the action's cli output, exit code 0", async () => {
    const steps = parse(readmeExample('ci-check-receiver')) as { id?: string; uses?: string; run?: string; env?: Record<string, string> }[];
    expect(steps[0]).toMatchObject({ id: 'sandbox', uses: expect.stringMatching(/\/waste-operations-sandbox@/) });
    const [, receiverStep, proveStep] = steps;
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, as the workflow writes it.
    expect(proveStep?.env).toEqual({ SANDBOX_CLI: '${{ steps.sandbox.outputs.cli }}' });
    // The output the recipe reads is the action's: the dist/cli.js of the folder it built in.
    const action = parse(readFileSync('action.yml', 'utf8')) as { outputs: Record<string, { value: string }> };
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, as action.yml writes it.
    expect(action.outputs.cli?.value).toBe('${{ steps.build.outputs.dir }}/dist/cli.js');

    const workspace = mkdtempSync(join(tmpdir(), 'waste-ops-ci-receiver-'));
    try {
      const actionDir = join(workspace, 'action');
      mkdirSync(actionDir);
      symlinkSync(resolve('dist'), join(actionDir, 'dist'));
      copyFileSync(NODE_RECEIVER, join(workspace, 'receiver.mjs'));
      const port = String(await freePort());
      // Its own process group, as a runner's step is: the receiver it leaves running is ended with it.
      const step = spawn('sh', ['-c', (receiverStep?.run ?? '').replaceAll('4242', port)], {
        cwd: workspace,
        detached: true,
        stdio: 'ignore',
      });
      if (step.pid !== undefined) groups.push(step.pid);
      const { stdout } = await run('sh', ['-ec', (proveStep?.run ?? '').replaceAll('4242', port)], {
        cwd: workspace,
        env: { ...process.env, SANDBOX_CLI: join(actionDir, 'dist', 'cli.js') },
      });
      expect(stdout).toMatch(/All 8 checks passed\./);
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  }, 90_000);
});
