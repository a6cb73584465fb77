// Issue #25: action.yml runs as a GitHub runner runs a composite action (test/action-runner.ts).
// The server it leaves running must be healthy, use the inputs, and sign with the secret it gives;
// the toolkit guide's workflow (docs/toolkit.md, "The GitHub Action") must use only inputs and outputs the action has, and its snapshot step
// must pass against the action's server. Issue #34: used twice in one job, each use builds in its
// own folder and writes its own log.
import { execFile, execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { action, expand, runAction, type Step, type StepOutputs } from './action-runner.js';
import { freePort } from './cli-server.js';
import { readmeExample } from './readme.js';

const execFileAsync = promisify(execFile);

const runnerTemp = mkdtempSync(join(tmpdir(), 'waste-ops-action-'));
// The guide's snapshot step sends the public key: the table keeps it beside one of the team's own.
const CUSTOM_KEYS = '[{"key":"svc_test_team_ci","account":"A","scopes":"*"},{"key":"svc_test_sandbox_public","account":"A","scopes":"*"}]';
// The second use of the action in the same job: another port, another key table.
const SECOND_KEYS = '[{"key":"svc_test_second_use","account":"B","scopes":"*"}]';

/** A receiver that keeps each delivery's headers and raw body. */
const deliveries: { headers: IncomingHttpHeaders; body: string }[] = [];
const receiver: Server = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => {
    body += chunk.toString();
  });
  request.on('end', () => {
    deliveries.push({ headers: request.headers, body });
    response.writeHead(200).end();
  });
});

let outputs: Record<string, string>;
let steps: StepOutputs;
/** The second use of the action in the job, after the first one's server started. */
let second: Record<string, string>;
let secondPort: number;

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
  // faults: a fraction of 0 changes no answer, yet the flag must reach the server (its banner says so).
  ({ outputs, steps } = await runAction(
    {
      port: '0',
      clock: '2026-03-02T17:00:00Z',
      keys: CUSTOM_KEYS,
      'webhook-url': receiverUrl,
      faults: 'api_error=0',
    },
    runnerTemp,
  ));
  secondPort = await freePort();
  ({ outputs: second } = await runAction({ port: String(secondPort), keys: SECOND_KEYS }, runnerTemp));
}, 360_000);

afterAll(() => {
  for (const pid of [Number(outputs?.pid), Number(second?.pid)]) {
    if (!(pid > 0)) continue;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already stopped by the test below
    }
  }
  receiver.close();
  rmSync(runnerTemp, { recursive: true, force: true });
});

/**
 * GitHub's runners have jq, which the guide's snapshot step runs; a machine without it (npm test
 * needs only Node and npm) gets a stand-in for `jq -S . <file>` first on PATH: the same output,
 * keys sorted, two-space indent, so the step's shell still runs as written.
 */
function withJq(path: string): string {
  if (!execFileSync('sh', ['-c', 'command -v jq || true'], { encoding: 'utf8' }).trim()) {
    const bin = mkdtempSync(join(runnerTemp, 'jq-'));
    writeFileSync(
      join(bin, 'jq'),
      `#!${process.execPath}
const [flag, filter, file] = process.argv.slice(2);
if (flag !== '-S' || filter !== '.' || file === undefined) { console.error('this jq stand-in does only jq -S . <file>'); process.exit(2); }
const sorted = (value) => Array.isArray(value) ? value.map(sorted) : value !== null && typeof value === 'object'
  ? Object.fromEntries(Object.keys(value).sort().map((key) => [key, sorted(value[key])])) : value;
let text;
try { text = require('node:fs').readFileSync(file, 'utf8'); } catch (error) { console.error(\`jq: error: Could not open \${file}\`); process.exit(2); }
console.log(JSON.stringify(sorted(JSON.parse(text)), null, 2));
`,
      { mode: 0o755 },
    );
    return `${bin}${delimiter}${path}`;
  }
  return path;
}

describe('action.yml', () => {
  it('is a composite action of bash run steps, with the inputs and outputs integrators use', () => {
    expect(action.runs.using).toBe('composite');
    for (const step of action.runs.steps) expect(step.shell, step.name).toBe('bash');
    expect(Object.keys(action.inputs).sort()).toEqual(
      ['clock', 'faults', 'keys', 'port', 'rate-limit', 'seed', 'webhook-events', 'webhook-secret', 'webhook-url'].sort(),
    );
    expect(action.inputs.port?.default).toBe('8787');
    expect(Object.keys(action.outputs)).toEqual(expect.arrayContaining(['url', 'webhook-secret', 'pid']));
  });

  it('builds with only what building needs: no test runner, browser driver, wrangler or workerd', () => {
    const installed = join(steps.build?.dir as string, 'node_modules');
    expect(existsSync(join(installed, 'esbuild'))).toBe(true);
    for (const name of ['vitest', 'playwright-core', 'wrangler', 'workerd', 'miniflare', 'typescript', '@biomejs'])
      expect(existsSync(join(installed, name)), name).toBe(false);
  });

  it('passes the faults input to the server', () => {
    expect(readFileSync(outputs.log as string, 'utf8')).toMatch(/Random faults on \/v1 requests: api_error=0/);
  });

  it('leaves a healthy server at the url output, answering with the key table of the keys input', async () => {
    expect(outputs.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const health = await fetch(`${outputs.url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const jobs = await fetch(`${outputs.url}/v1/jobs?limit=1`, { headers: { Authorization: 'Bearer svc_test_team_ci' } });
    expect(jobs.status, await jobs.clone().text()).toBe(200);
    // A key of the default table that this one does not have.
    const defaultKey = await fetch(`${outputs.url}/v1/jobs?limit=1`, { headers: { Authorization: 'Bearer svc_test_sandbox_readonly' } });
    expect(defaultKey.status).toBe(401);
  });

  it('gives the secret that signs the events of writes as the webhook-secret output', async () => {
    expect(outputs['webhook-secret']).toMatch(/^whsec_\w+$/);
    const created = await fetch(`${outputs.url}/v1/jobs`, {
      method: 'POST',
      headers: { Authorization: 'Bearer svc_test_team_ci', 'Content-Type': 'application/json' },
      body: JSON.stringify({ type: 'ci_pickup', client: 'cli_seII9pzPSgmmJJ', site: 'site_boDWBFERDT5aI9' }),
    });
    expect(created.status).toBe(201);
    for (let tries = 0; deliveries.length === 0 && tries < 100; tries++) await new Promise((resolve) => setTimeout(resolve, 50));
    const delivery = deliveries[0];
    expect(delivery, 'no delivery within 5 s').toBeDefined();
    // The reference's signature: hex HMAC-SHA256 of "<t>.<raw body>", keyed by the secret.
    const [, t, v1] = String(delivery?.headers['service-signature']).match(/^t=(\d+),v1=([0-9a-f]{64})$/) ?? [];
    const expected = createHmac('sha256', outputs['webhook-secret'] as string)
      .update(`${t}.${delivery?.body}`)
      .digest('hex');
    expect(v1).toBe(expected);
  });

  it("passes the guide workflow's snapshot step against its server (the clock input pinned)", async () => {
    const workflow = parse(readmeExample('github-actions')) as {
      on: unknown;
      jobs: Record<string, { steps: (Step & { with?: Record<string, string> })[] }>;
    };
    expect(workflow.on).toBeDefined();
    const workflowSteps = Object.values(workflow.jobs).flatMap((job) => job.steps);
    const sandbox = workflowSteps.find((step) => step.uses?.includes('/waste-operations-sandbox@'));
    // A pinned ref: a release tag or a full commit SHA, never a branch.
    expect(sandbox?.uses).toMatch(/^[\w-]+\/waste-operations-sandbox@(v\d+\.\d+\.\d+|[0-9a-f]{40})$/);
    for (const input of Object.keys(sandbox?.with ?? {})) expect(Object.keys(action.inputs), input).toContain(input);
    expect(sandbox?.with?.clock).toBe('2026-03-02T17:00:00Z');
    const used = [...readmeExample('github-actions').matchAll(/steps\.(\w+)\.outputs\.([\w-]+)/g)];
    for (const [, id, output] of used) {
      expect(id).toBe(sandbox?.id);
      expect(Object.keys(action.outputs)).toContain(output);
    }

    // Run as the runner runs a step with no `shell:` (bash -e, no pipefail), in a workspace
    // holding the snapshot file.
    const snapshot = workflowSteps.find((step) => step.run?.includes('test/snapshots/')) as Step;
    const committed = snapshot.run?.match(/test\/snapshots\/\S+\.json/)?.[0] as string;
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: withJq(process.env.PATH ?? '') };
    for (const [name, value] of Object.entries(snapshot.env ?? {})) env[name] = expand(value, {}, { [sandbox?.id as string]: outputs });
    const runWith = async (saved: string) => {
      const workspace = mkdtempSync(join(runnerTemp, 'workspace-'));
      mkdirSync(join(workspace, committed, '..'), { recursive: true });
      writeFileSync(join(workspace, committed), saved);
      const script = join(workspace, 'step.sh');
      writeFileSync(script, snapshot.run as string);
      return execFileAsync('bash', ['-e', script], { cwd: workspace, env }).then(
        () => ({ passed: true, output: '' }),
        (error: { stdout: string; stderr: string }) => ({ passed: false, output: error.stdout + error.stderr }),
      );
    };
    // The answer as recorded, saved as an editor saves it: with a final newline.
    const recorded = readFileSync('test/action/job-created.snapshot.txt', 'utf8');
    expect(recorded.endsWith('}\n')).toBe(true);
    expect(await runWith(recorded)).toEqual({ passed: true, output: '' });
    // As a formatter (Prettier, Biome) leaves a .json file.
    expect(await runWith(`${JSON.stringify(JSON.parse(recorded), null, 2)}\n`)).toEqual({ passed: true, output: '' });
    // A snapshot the answer no longer matches fails the step, showing what changed.
    const changed = await runWith(recorded.replace('"status":"draft"', '"status":"scheduled"'));
    expect(changed.passed).toBe(false);
    expect(changed.output).toContain('-  "status": "scheduled",');
    expect(changed.output).toContain('+  "status": "draft",');
  });

  it('used twice in one job: each use has its own folder and log, and both servers answer with their own keys', async () => {
    expect(second.url).toBe(`http://127.0.0.1:${secondPort}`);
    expect(second.url).not.toBe(outputs.url);
    expect(second.log).not.toBe(outputs.log);
    expect(dirname(second.log as string)).not.toBe(dirname(outputs.log as string));
    for (const [use, own, other] of [
      [outputs, 'svc_test_team_ci', 'svc_test_second_use'],
      [second, 'svc_test_second_use', 'svc_test_team_ci'],
    ] as const) {
      const jobs = await fetch(`${use.url}/v1/jobs?limit=1`, { headers: { Authorization: `Bearer ${own}` } });
      expect(jobs.status, `${use.url}: ${await jobs.clone().text()}`).toBe(200);
      const foreign = await fetch(`${use.url}/v1/jobs?limit=1`, { headers: { Authorization: `Bearer ${other}` } });
      expect(foreign.status, use.url).toBe(401);
      // The reference page's files: still in the first use's folder after the second one built.
      expect((await fetch(`${use.url}/docs/swagger-ui-bundle.js`)).status, use.url).toBe(200);
    }
    const firstLog = readFileSync(outputs.log as string, 'utf8');
    const secondLog = readFileSync(second.log as string, 'utf8');
    expect(firstLog).toContain(`Waste Operations API sandbox on ${outputs.url} `);
    expect(firstLog).not.toContain(`on ${second.url} `);
    expect(firstLog).not.toContain('\0');
    expect(secondLog).toContain(`Waste Operations API sandbox on ${second.url} `);
    expect(secondLog).not.toContain(`on ${outputs.url} `);
    expect(secondLog).not.toContain('\0');
  });

  it('stops the server with `kill <pid output>`, freeing the port', async () => {
    process.kill(Number(outputs.pid), 'SIGTERM');
    let refused = false;
    for (let tries = 0; !refused && tries < 100; tries++) {
      refused = await fetch(`${outputs.url}/health`).then(
        () => false,
        () => true,
      );
      if (!refused) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(refused, 'still answering 5 s after SIGTERM').toBe(true);
  });
});
