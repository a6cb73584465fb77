// Issue #22: the recipes of docs/testing-retries.md, run as they stand. The retry wrapper and the
// in-process programs (they assert their own counts: one job with the key, two without, under
// both `_after_write` faults; the soak under random faults); the same wrapper against the built
// server on a loopback socket, counting job.created at a loopback receiver; the dedupe receiver
// with `npm start` and its curl; and every curl line of the guide, its status, headers and the
// events delivered. Free ports stand in for 4242 and 8787.
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, listening, type RunningServer, startCli } from './cli-server.js';
import { type Receiver, startReceiver } from './events/receiver.js';
import { readmeExample } from './readme.js';
import { recipeProcesses, until } from './recipe-processes.js';

const run = promisify(execFile);
const folder = join('test', '.readme-examples', 'retries');
const SECRET = 'whsec_retriesGuideTest';
const KEY = 'svc_test_sandbox_public';
const JOB = { type: 'ci_pickup', client: 'cli_seII9pzPSgmmJJ', site: 'site_boDWBFERDT5aI9' };
const processes = recipeProcesses();

/** The guide's wrapper, as its module exports it. */
type WithRetries = <T extends { response: Response }>(
  write: (idempotencyKey: string) => Promise<T>,
  options?: { attempts?: number; backoffMs?: number },
) => Promise<T>;

beforeAll(() => {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'with-retries.ts'), readmeExample('retries-client'));
});

afterAll(() => {
  processes.stopAll();
  rmSync(folder, { recursive: true, force: true });
});

async function runRecipe(name: string, file: string): Promise<void> {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, file), readmeExample(name));
  await import(/* @vite-ignore */ `./.readme-examples/retries/${file}`);
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The event objects a receiver got, in order of arrival. */
function eventsOf(receiver: Receiver): { id: string; type: string; data: { object: { id: string } } }[] {
  return receiver.deliveries.map((delivery) => JSON.parse(delivery.body));
}

describe('the retrying client, in-process', () => {
  it('creates one job with the key and two without, under api_error_after_write and reset_after_write', async () => {
    const recipe = readmeExample('retries-in-process');
    // The counts the guide promises are the recipe's own assertions.
    expect(recipe).toContain("assert.equal(once.response.headers.get('Idempotent-Replayed'), 'true');");
    expect(recipe).toContain("[['job.created', once.data?.id]]");
    expect(recipe).toContain("assert.equal(events.filter((event) => event.type === 'job.created').length, 2);");
    expect(recipe).toContain("for (const fault of ['api_error_after_write', 'reset_after_write'])");
    await runRecipe('retries-in-process', 'retries.ts');
  });

  it('soaks 30 creates in random faults: each job created once, answers lost after the write replayed', async () => {
    const recipe = readmeExample('retries-soak');
    expect(recipe).toContain('assert.equal(events.length, 30);');
    expect(recipe).toContain("assert.ok(replayed > 0, 'no answer was lost after its write: are the faults on?');");
    await runRecipe('retries-soak', 'soak.ts');
  });
});

describe('the retrying client against the built server', () => {
  let receiver: Receiver;
  let server: RunningServer;
  let withRetries: WithRetries;

  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startCli(['--port', '0', '--rate-limit', 'off', '--webhook-url', receiver.url, '--webhook-secret', SECRET]);
    const written = './.readme-examples/retries/with-retries.ts';
    ({ withRetries } = (await import(/* @vite-ignore */ written)) as { withRetries: WithRetries });
  });

  afterAll(async () => {
    server?.stop();
    await receiver?.close();
  });

  /** One logical create through the wrapper; the first attempt meets `fault`. Each attempt's outcome is recorded. */
  async function createJob(fault: string, withKey: boolean) {
    const attempts: string[] = [];
    const result = await withRetries(
      async (key) => {
        const headers: Record<string, string> = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' };
        if (withKey) headers['Idempotency-Key'] = key;
        if (attempts.length === 0) headers['Sandbox-Simulate'] = fault;
        try {
          const response = await fetch(`${server.origin}/v1/jobs`, { method: 'POST', headers, body: JSON.stringify(JOB) });
          attempts.push(String(response.status));
          return { response, data: (await response.json()) as { id: string } };
        } catch (error) {
          const cause = (error as Error).cause as { code?: string } | undefined;
          attempts.push(`${(error as Error).name}: ${(error as Error).message} (${cause?.code})`);
          throw error;
        }
      },
      { backoffMs: 50 },
    );
    return { ...result, attempts };
  }

  it("type-checks the TypeScript recipes with the typed-client guide's tsconfig and types generated from /openapi.json", async () => {
    const project = join(folder, 'project');
    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(join(project, 'package.json'), '{ "private": true, "type": "module" }\n');
    const tsconfig = JSON.parse(readmeExample('typed-client-tsconfig')) as { compilerOptions: Record<string, unknown> };
    // The package's declaration files as the tarball ships them (prepack), in place of an installed copy.
    tsconfig.compilerOptions.paths = { 'waste-operations-sandbox': ['./types/index.d.ts'] };
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(tsconfig));
    for (const [example, file] of [
      ['retries-client', 'with-retries.ts'],
      ['retries-in-process', 'retries.ts'],
      ['retries-soak', 'soak.ts'],
    ] as const) {
      writeFileSync(join(project, 'src', file), readmeExample(example));
    }
    const compile = async (args: string[]) => {
      try {
        await run(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 });
      } catch (error) {
        const failed = error as { stdout?: string; stderr?: string };
        throw new Error(`${args.join(' ')}:\n${failed.stdout ?? ''}${failed.stderr ?? ''}`);
      }
    };
    await compile([
      'node_modules/openapi-typescript/bin/cli.js',
      `${server.origin}/openapi.json`,
      '--output',
      join(project, 'src', 'waste-ops-api.ts'),
    ]);
    await compile(['node_modules/typescript/bin/tsc', '-p', 'tsconfig.types.json', '--outDir', join(project, 'types')]);
    await compile(['node_modules/typescript/bin/tsc', '--noEmit', '-p', project]);
  }, 120_000);

  for (const [fault, firstAttempt] of [
    ['api_error_after_write', '500'],
    ['reset_after_write', 'TypeError: fetch failed (ECONNRESET)'],
  ] as const) {
    it(`${fault}: one job.created with the key, two without`, async () => {
      const before = receiver.deliveries.length;
      const once = await createJob(fault, true);
      expect(once.attempts).toEqual([firstAttempt, '201']);
      expect(once.response.headers.get('Idempotent-Replayed')).toBe('true');
      await receiver.waitFor(before + 1);
      await settle(500);
      expect(
        eventsOf(receiver)
          .slice(before)
          .map((event) => [event.type, event.data.object.id]),
      ).toEqual([['job.created', once.data.id]]);

      const twice = await createJob(fault, false);
      expect(twice.attempts).toEqual([firstAttempt, '201']);
      expect(twice.response.headers.get('Idempotent-Replayed')).toBeNull();
      await receiver.waitFor(before + 3);
      await settle(500);
      const created = eventsOf(receiver).slice(before + 1);
      expect(created.map((event) => event.type)).toEqual(['job.created', 'job.created']);
      expect(new Set(created.map((event) => event.data.object.id)).size).toBe(2);
      expect(created.map((event) => event.data.object.id)).toContain(twice.data.id);
    });
  }
});

describe('the receiver that dedupes, end to end', () => {
  it('processes job.created once of the two deliveries duplicate_event makes', async () => {
    const [receiverPort, sandboxPort] = [await freePort(), await freePort()];
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, 'receiver-dedupe.mjs'),
      readmeExample('receiver-dedupe').replace('.listen(4242)', `.listen(${receiverPort}, '127.0.0.1')`),
    );
    const lines = readmeExample('receiver-dedupe-run')
      .replace(/\\\n\s*/g, '')
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('#'))
      .map((line) => line.replaceAll('4242', String(receiverPort)).replaceAll('8787', String(sandboxPort)));
    const [receiverLine, startLine, curlLine] = lines as [string, string, string];
    expect(lines).toHaveLength(3);
    expect(receiverLine).toMatch(/^WEBHOOK_SECRET=whsec_\w+ node receiver-dedupe\.mjs$/);
    expect(startLine).toMatch(/^npm start -- --webhook-url /);
    expect(curlLine).toContain("-H 'Sandbox-Simulate: duplicate_event'");

    const received = await processes.background(receiverLine, folder);
    await listening(receiverPort);
    await processes.background(`${startLine} --port ${sandboxPort}`, process.cwd(), /on http:\/\/127\.0\.0\.1:\d+/);
    const created = await run('sh', ['-ec', curlLine.replace('curl ', 'curl -sS ')]);
    const job = JSON.parse(created.stdout) as { id: string; object: string };
    expect(job.object).toBe('job');

    await until(() => /duplicate evt_\w+: ignored/.test(received()), 'the second delivery', 200);
    await settle(1_500);
    const output = received();
    const processed = [...output.matchAll(/^processed job\.created (evt_\w+)$/gm)].map((match) => match[1]);
    const duplicates = [...output.matchAll(/^duplicate (evt_\w+): ignored$/gm)].map((match) => match[1]);
    expect(processed, output).toHaveLength(1);
    expect(duplicates, output).toEqual(processed);
    expect(output).not.toContain('refused');
  }, 60_000);
});

describe("the guide's curl lines, against the built server", () => {
  interface Step {
    /** The status the comment names (the test checks it does) and the answer has; null: no answer. */
    status: number | null;
    headers?: Record<string, string | null>;
    error?: { code: string; param?: string; message?: string };
    /** job.created events the step causes (distinct event IDs). */
    created: number;
  }

  // In the guide's order; from the contract of failures on demand (docs/testing-retries.md).
  const STEPS: Step[] = [
    { status: 429, headers: { 'retry-after': '1', 'sandbox-fault': 'rate_limited' }, error: { code: 'rate_limited' }, created: 0 },
    { status: 500, headers: { 'sandbox-fault': 'api_error' }, error: { code: 'api_error' }, created: 0 },
    { status: 500, headers: { 'sandbox-fault': 'api_error_after_write' }, error: { code: 'api_error' }, created: 1 },
    { status: 201, headers: { 'idempotent-replayed': 'true', 'sandbox-fault': null }, created: 0 },
    { status: null, created: 1 },
    { status: 201, headers: { 'idempotent-replayed': 'true', 'sandbox-fault': null }, created: 0 },
    { status: 201, headers: { 'sandbox-fault': 'duplicate_event', 'idempotent-replayed': null }, created: 1 },
    { status: 201, headers: { 'sandbox-fault': 'delay=2500' }, created: 1 },
    { status: 500, headers: { 'sandbox-fault': 'api_error_after_write' }, error: { code: 'api_error' }, created: 0 },
    { status: 400, headers: { 'sandbox-fault': null }, error: { code: 'parameter_invalid', param: 'type' }, created: 0 },
    {
      status: 400,
      headers: { 'sandbox-fault': null },
      error: { code: 'parameter_invalid', param: 'Sandbox-Simulate', message: 'Did you mean "api_error"?' },
      created: 0,
    },
  ];

  let receiver: Receiver;
  let server: RunningServer;

  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startCli(['--port', '0', '--rate-limit', 'off', '--webhook-url', receiver.url, '--webhook-secret', SECRET]);
  });

  afterAll(async () => {
    server?.stop();
    await receiver?.close();
  });

  /** The block as its variable lines and its steps, each a comment and one command. */
  function stepsOf(block: string): { prelude: string; steps: { comment: string; command: string }[] } {
    const joined = block.replace(/\\\n\s*/g, '');
    const [prelude = '', ...rest] = joined.trim().split(/\n\s*\n/);
    return {
      prelude,
      steps: rest.map((text) => {
        const lines = text.split('\n');
        return {
          comment: lines.filter((line) => line.startsWith('#')).join(' '),
          command: lines.filter((line) => !line.startsWith('#')).join('\n'),
        };
      }),
    };
  }

  it('answers each as its comment says, with the events it says', async () => {
    const { prelude, steps } = stepsOf(readmeExample('retries-curl'));
    expect(prelude).toContain('API=http://127.0.0.1:8787');
    expect(steps).toHaveLength(STEPS.length);
    const jobsCreated: string[] = [];
    const seen = new Set<string>();
    let expectedEvents = 0;
    for (const [index, { comment, command }] of steps.entries()) {
      const step = STEPS[index] as Step;
      const where = `step ${index + 1}: ${comment}`;
      expect(command, where).toMatch(/^curl -i /);
      if (step.status === null) expect(comment, where).toContain('Connection reset by peer');
      else expect(comment, where).toMatch(new RegExp(`^# (.* )?${step.status}\\b`));

      const script = `${prelude.replace('http://127.0.0.1:8787', server.origin)}\ncurl() { command curl -sS "$@"; }\n${command}`;
      const outcome = await run('sh', ['-ec', script]).then(
        ({ stdout }) => ({ stdout, code: 0, stderr: '' }),
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      const eventsAtAnswer = new Set(eventsOf(receiver).map((event) => event.id)).size;

      if (step.status === null) {
        // The connection reset before any byte of the answer: curl's error 56, nothing on stdout.
        expect(outcome.code, where).toBe(56);
        expect(outcome.stderr, where).toContain('Connection reset by peer');
        expect(outcome.stdout, where).toBe('');
      } else {
        expect(outcome.code, `${where}\n${outcome.stderr}`).toBe(0);
        const [head = '', body = ''] = outcome.stdout.split('\r\n\r\n');
        expect(head.split('\r\n')[0], where).toMatch(new RegExp(`^HTTP/1\\.1 ${step.status} `));
        const headers = new Map(
          head
            .split('\r\n')
            .slice(1)
            .map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
        );
        for (const [name, value] of Object.entries(step.headers ?? {})) expect(headers.get(name) ?? null, `${where}: ${name}`).toBe(value);
        const json = JSON.parse(body);
        if (step.error !== undefined) {
          expect(json.error, where).toMatchObject({ code: step.error.code, ...(step.error.param ? { param: step.error.param } : {}) });
          if (step.error.message !== undefined) expect(json.error.message, where).toContain(step.error.message);
        } else {
          expect(json.object, where).toBe('job');
          // A replay answers the job the lost answer's write created.
          if (headers.get('idempotent-replayed') === 'true') expect(json.id, where).toBe(jobsCreated.at(-1));
        }
      }

      expectedEvents += step.created;
      await until(() => new Set(eventsOf(receiver).map((event) => event.id)).size >= expectedEvents, `${where}: its events`);
      // delay=2500 holds the answer, not the events: they arrived before it.
      if (step.headers?.['sandbox-fault']?.startsWith('delay=')) expect(eventsAtAnswer, where).toBe(expectedEvents);
      for (const event of eventsOf(receiver)) {
        if (seen.has(event.id)) continue;
        seen.add(event.id);
        jobsCreated.push(event.data.object.id);
      }
    }

    // Every delivery has arrived, the duplicate's second one included (about a second after its first).
    await until(() => receiver.deliveries.length >= 5, 'the five deliveries');
    await settle(1_500);
    const events = eventsOf(receiver);
    expect(events.map((event) => event.type)).toEqual(['job.created', 'job.created', 'job.created', 'job.created', 'job.created']);
    expect(new Set(events.map((event) => event.id)).size).toBe(4);
    // duplicate_event's two deliveries: the same bytes, one event ID.
    const bodies = new Map<string, string[]>();
    for (const { body } of receiver.deliveries) bodies.set(JSON.parse(body).id, [...(bodies.get(JSON.parse(body).id) ?? []), body]);
    const twice = [...bodies.values()].filter((delivered) => delivered.length === 2);
    expect(twice).toHaveLength(1);
    expect(twice[0]?.[0]).toBe(twice[0]?.[1]);
  }, 60_000);
});
