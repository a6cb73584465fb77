// Issues #19 and #25: the guide's "Generate a typed client" recipe, run as a user runs it. A new
// project in the OS temp directory gets the guide's package.json, tsconfig.json and program as
// written, `npm install` from the registry with exactly the versions the guide names (the
// installed node_modules is kept under node_modules/.cache/typed-client/, keyed by that
// package.json, so a re-run downloads nothing), then the guide's commands against a running
// sandbox: generate, type-check under TypeScript 5.9 and 7, compile, run; every exit status
// counts. Then the in-process program is type-checked with the package's own declaration files
// (skipLibCheck off) under both compilers, compiled and run against the built package.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli, type RunningServer } from './cli-server.js';
import { readmeExample } from './readme.js';
import { EVENT_TYPES as WEBHOOK_TYPES } from './reference/resources.js';

const execFileAsync = promisify(execFile);
const GUIDE_ORIGIN = 'http://127.0.0.1:8787';
const project = mkdtempSync(join(tmpdir(), 'waste-ops-typed-client-'));
let server: RunningServer;

/** Runs a command in the project; a non-zero exit fails with everything it printed. */
async function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  try {
    const { stdout, stderr } = await execFileAsync(command, args, { cwd: project, env, maxBuffer: 16 * 1024 * 1024 });
    return stdout + stderr;
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} exited with ${failed.code}:\n${failed.stdout ?? ''}${failed.stderr ?? ''}`);
  }
}

/** The guide's file, pointed at the sandbox this test started. */
function guideFile(example: string): string {
  return readmeExample(example).replaceAll(GUIDE_ORIGIN, server.origin);
}

/**
 * `npm install`, as the guide says, the first time for this package.json; afterwards the kept
 * node_modules, linked entry by entry so the project's own node_modules can take more packages.
 */
async function install(): Promise<void> {
  const key = createHash('sha256').update(readmeExample('typed-client-package-json')).digest('hex').slice(0, 16);
  const cached = resolve('node_modules', '.cache', 'typed-client', key, 'node_modules');
  if (!existsSync(join(cached, '.package-lock.json'))) {
    await run('npm', ['install', '--no-audit', '--no-fund', '--no-update-notifier']);
    rmSync(cached, { recursive: true, force: true });
    cpSync(join(project, 'node_modules'), cached, { recursive: true, verbatimSymlinks: true });
    return;
  }
  mkdirSync(join(project, 'node_modules'));
  for (const entry of readdirSync(cached)) symlinkSync(join(cached, entry), join(project, 'node_modules', entry));
}

beforeAll(async () => {
  server = await startCli(['--port', '0', '--rate-limit', 'off']);
  mkdirSync(join(project, 'src'));
  writeFileSync(join(project, 'package.json'), guideFile('typed-client-package-json'));
  writeFileSync(join(project, 'tsconfig.json'), guideFile('typed-client-tsconfig'));
  writeFileSync(join(project, 'src', 'program.ts'), guideFile('typed-client'));
  // Issue #36: the typed receiver of docs/webhook-signatures.md, type-checked and compiled with the program.
  writeFileSync(join(project, 'src', 'receiver.ts'), guideFile('typed-receiver'));
}, 30_000);

afterAll(() => {
  server?.stop();
  rmSync(project, { recursive: true, force: true });
});

describe("the typed-client guide's project", () => {
  it('names exact versions: TypeScript 5.9.3 for the generator, 7.0.2 to compile', () => {
    const { devDependencies } = JSON.parse(readmeExample('typed-client-package-json')) as { devDependencies: Record<string, string> };
    expect(devDependencies).toMatchObject({ typescript: '5.9.3', 'typescript-7': 'npm:typescript@7.0.2', 'openapi-typescript': '7.13.0' });
    for (const [name, version] of Object.entries(devDependencies)) expect(version, name).toMatch(/^(npm:[\w-]+@)?\d+\.\d+\.\d+$/);
  });

  it('installs, generates, type-checks under TypeScript 5.9.3 and 7.0.2, compiles and runs as its commands say', async () => {
    const commands = readmeExample('typed-client-generate')
      .split('\n')
      .map((line) => line.replace(/#.*$/, '').trim())
      .filter((line) => line !== '');
    expect(commands).toEqual(['npm install', 'npm run generate', 'npm run check', 'npm run build && npm start']);
    await install();
    expect(await run(process.execPath, ['node_modules/typescript/bin/tsc', '--version'])).toContain('Version 5.9.3');
    expect(await run(process.execPath, ['node_modules/typescript-7/bin/tsc', '--version'])).toContain('Version 7.0.2');

    let output = '';
    for (const command of commands.slice(1)) output += await run('sh', ['-ec', command]);
    const types = readFileSync(join(project, 'src', 'waste-ops-api.ts'), 'utf8');
    expect(types).toContain('"/v1/jobs/{id}"');
    // The error schema's name cannot shadow the global Error in generated code.
    expect(types).toContain('ErrorResponse: {');
    expect(types).not.toMatch(/\bError: \{/);
    // The twelve event types of the reference, as webhooks, each with its own event schema.
    for (const type of WEBHOOK_TYPES) expect(types).toContain(`"${type}": {`);
    expect(types).toMatch(/export interface webhooks \{/);
    expect(types).toMatch(
      /InvoicePaidEvent: \{[\s\S]{0,400}?type: "invoice\.paid";\s*data: \{\s*object: components\["schemas"\]\["Invoice"\];/,
    );
    expect(output).toContain('job_wR79b7gPQg1ViA is scheduled; a new job is draft; job_doesnotexist000 is resource_missing');

    // docs/toolkit.md: from a clone, the committed openapi.json gives the same types, nothing started.
    cpSync(resolve('openapi.json'), join(project, 'openapi.json'));
    await run('sh', ['-ec', 'npx openapi-typescript ./openapi.json --output src/from-file.ts']);
    expect(readFileSync(join(project, 'src', 'from-file.ts'), 'utf8')).toBe(types);
  }, 180_000);

  it('fails `npm run check` under both compilers when the program misuses a generated type', async () => {
    const wrong = `${guideFile('typed-client')}\nexport const status: number = list.data?.data[0]?.status;\n`;
    writeFileSync(join(project, 'src', 'wrong.ts'), wrong);
    try {
      for (const compiler of ['node_modules/typescript/bin/tsc', 'node_modules/typescript-7/bin/tsc']) {
        const failed = await run(process.execPath, [compiler, '--noEmit']).then(
          () => undefined,
          (error: Error) => error.message,
        );
        expect(failed, compiler).toMatch(/wrong\.ts\(\d+,\d+\): error TS2322/);
      }
    } finally {
      rmSync(join(project, 'src', 'wrong.ts'));
    }
  }, 60_000);

  it('fails `npm run check` under both compilers when a receiver reads a record another event type carries', async () => {
    // An invoice.paid carries an invoice: it has no status of a job's, and its amount is a number.
    const wrong = `${guideFile('typed-receiver')}\nexport const wrongly = (event: WebhookEvent): string => event.type === 'invoice.paid' ? event.data.object.amount_paid : '';\n`;
    writeFileSync(join(project, 'src', 'wrong-receiver.ts'), wrong);
    try {
      for (const compiler of ['node_modules/typescript/bin/tsc', 'node_modules/typescript-7/bin/tsc']) {
        const failed = await run(process.execPath, [compiler, '--noEmit']).then(
          () => undefined,
          (error: Error) => error.message,
        );
        expect(failed, compiler).toMatch(/wrong-receiver\.ts\(\d+,\d+\): error TS2322/);
      }
    } finally {
      rmSync(join(project, 'src', 'wrong-receiver.ts'));
    }
  }, 60_000);

  it("type-checks the in-process program with the package's declaration files under both compilers, and runs it", async () => {
    // The package as `npm install ./waste-operations-sandbox-….tgz` lays it out: package.json, the
    // bundles of this run's build, and the declaration files `prepack` makes.
    const installed = join(project, 'node_modules', 'waste-operations-sandbox');
    mkdirSync(installed);
    cpSync('package.json', join(installed, 'package.json'));
    cpSync('dist', join(installed, 'dist'), { recursive: true, filter: (path) => !/dist\/(types|worker)(\/|$)/.test(path) });
    await execFileAsync(process.execPath, [
      'node_modules/typescript/bin/tsc',
      '-p',
      'tsconfig.types.json',
      '--outDir',
      join(installed, 'dist', 'types'),
    ]);

    writeFileSync(join(project, 'src', 'in-process.ts'), guideFile('typed-client-in-process'));
    await run(process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit', '--skipLibCheck', 'false']);
    await run(process.execPath, ['node_modules/typescript-7/bin/tsc', '--noEmit', '--skipLibCheck', 'false']);
    await run(process.execPath, ['node_modules/typescript-7/bin/tsc']);
    await run(process.execPath, ['build/in-process.js']);
  }, 120_000);
});
