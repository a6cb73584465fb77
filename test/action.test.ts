// Issue #25: action.yml runs as a GitHub runner runs a composite action. Each step's `run:` script
// goes to `bash --noprofile --norc -eo pipefail` with the runner's environment (GITHUB_ACTION_PATH
// this repository, RUNNER_TEMP a new directory, a GITHUB_OUTPUT file per step) and the step's
// `env:` with `${{ inputs.… }}` filled in; the action's outputs are read from its steps' outputs.
// The server it leaves running must be healthy, use the inputs, and sign with the secret it gives;
// the README's workflow must use only inputs and outputs the action has, and its snapshot step
// must pass against the action's server.
import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readmeExample } from './readme.js';

const execFileAsync = promisify(execFile);

interface Step {
  id?: string;
  name?: string;
  shell?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
}
interface Action {
  runs: { using: string; steps: Step[] };
  inputs: Record<string, { description: string; default?: string }>;
  outputs: Record<string, { description: string; value: string }>;
}

const action = parse(readFileSync('action.yml', 'utf8')) as Action;
const runnerTemp = mkdtempSync(join(tmpdir(), 'waste-ops-action-'));
// The README's snapshot step sends the public key: the table keeps it beside one of the team's own.
const CUSTOM_KEYS = '[{"key":"svc_test_team_ci","account":"A","scopes":"*"},{"key":"svc_test_sandbox_public","account":"A","scopes":"*"}]';

/** `${{ inputs.x }}` and `${{ steps.y.outputs.z }}`, as the runner fills them in. */
function expand(text: string, inputs: Record<string, string>, outputs: Record<string, Record<string, string>>): string {
  return text.replace(/\$\{\{\s*([\w.-]+)\s*\}\}/g, (whole, path: string) => {
    const [scope, name, field, output] = path.split('.') as [string, string, string?, string?];
    if (scope === 'inputs') return inputs[name] ?? action.inputs[name]?.default ?? '';
    if (scope === 'steps' && field === 'outputs' && output !== undefined) return outputs[name]?.[output] ?? '';
    throw new Error(`the test runner does not know ${whole}`);
  });
}

/** Runs the action's steps; resolves to its outputs. */
async function runAction(inputs: Record<string, string>): Promise<Record<string, string>> {
  const outputs: Record<string, Record<string, string>> = {};
  for (const [index, step] of action.runs.steps.entries()) {
    if (step.run === undefined) throw new Error(`step ${index} is not a run: step`);
    const outputFile = join(runnerTemp, `output-${index}`);
    writeFileSync(outputFile, '');
    const script = join(runnerTemp, `step-${index}.sh`);
    writeFileSync(script, step.run);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      GITHUB_ACTION_PATH: process.cwd(),
      RUNNER_TEMP: runnerTemp,
      GITHUB_OUTPUT: outputFile,
    };
    for (const [name, value] of Object.entries(step.env ?? {})) env[name] = expand(value, inputs, outputs);
    try {
      await execFileAsync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { env, maxBuffer: 16 * 1024 * 1024 });
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      throw new Error(`step "${step.name}" exited with ${failed.code}:\n${failed.stdout}${failed.stderr}`);
    }
    const lines = readFileSync(outputFile, 'utf8').split('\n').filter(Boolean);
    if (step.id !== undefined)
      outputs[step.id] = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
  }
  return Object.fromEntries(Object.entries(action.outputs).map(([name, output]) => [name, expand(output.value, inputs, outputs)]));
}

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

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
  // faults: a fraction of 0 changes no answer, yet the flag must reach the server (its banner says so).
  outputs = await runAction({
    port: '0',
    clock: '2026-03-02T17:00:00Z',
    keys: CUSTOM_KEYS,
    'webhook-url': receiverUrl,
    faults: 'api_error=0',
  });
}, 240_000);

afterAll(() => {
  const pid = Number(outputs?.pid);
  if (pid > 0) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already stopped by the test below
    }
  }
  receiver.close();
  rmSync(runnerTemp, { recursive: true, force: true });
});

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
    const installed = join(runnerTemp, 'waste-operations-sandbox', 'node_modules');
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

  it("passes the README workflow's snapshot step against its server (the clock input pinned)", async () => {
    const workflow = parse(readmeExample('github-actions')) as {
      on: unknown;
      jobs: Record<string, { steps: (Step & { with?: Record<string, string> })[] }>;
    };
    expect(workflow.on).toBeDefined();
    const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
    const sandbox = steps.find((step) => step.uses?.includes('/waste-operations-sandbox@'));
    // A pinned ref: a release tag or a full commit SHA, never a branch.
    expect(sandbox?.uses).toMatch(/^[\w-]+\/waste-operations-sandbox@(v\d+\.\d+\.\d+|[0-9a-f]{40})$/);
    for (const input of Object.keys(sandbox?.with ?? {})) expect(Object.keys(action.inputs), input).toContain(input);
    expect(sandbox?.with?.clock).toBe('2026-03-02T17:00:00Z');
    const used = [...readmeExample('github-actions').matchAll(/steps\.(\w+)\.outputs\.([\w-]+)/g)];
    for (const [, id, output] of used) {
      expect(id).toBe(sandbox?.id);
      expect(Object.keys(action.outputs)).toContain(output);
    }

    const snapshot = steps.find((step) => step.run?.includes('git diff --no-index')) as Step;
    const workspace = join(runnerTemp, 'workspace');
    const committed = snapshot.run?.match(/--exit-code (\S+)/)?.[1] as string;
    mkdirSync(join(workspace, committed, '..'), { recursive: true });
    writeFileSync(join(workspace, committed), readFileSync('test/action/job-created.snapshot.txt'));
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const [name, value] of Object.entries(snapshot.env ?? {})) env[name] = expand(value, {}, { [sandbox?.id as string]: outputs });
    await execFileAsync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', snapshot.run as string], { cwd: workspace, env });
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
