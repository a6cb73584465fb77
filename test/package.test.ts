// The published package as a user gets it (issue #7, item 5; issue #19: the tarball docs/toolkit.md installs): `npm pack`, installed into an empty
// folder with no network and no dev dependencies, its bin started and asked for a list and the
// docs' files, and its library imported. Nothing is built after the pack. The package is built
// and packed from a copy of the sources (test/packed-package.ts): this checkout's dist/, which
// other suites run at the same time, is never touched.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, listening, type RunningServer, startCommand } from './cli-server.js';
import { packedPackage } from './packed-package.js';
import { readmeExample } from './readme.js';

const run = promisify(execFile);
const root = process.cwd();
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version as string;
const PUBLIC_KEY = 'svc_test_sandbox_public';

let folder: string;
/** The copy of the sources the package is built and packed from. */
let copy: string;
let bin: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'sandbox-package-'));
  const packed = await packedPackage();
  copy = packed.sources;
  // The name docs/toolkit.md tells people to install.
  expect(basename(packed.tarball)).toBe(`waste-operations-sandbox-${version}.tgz`);
  const project = join(folder, 'project');
  await run('mkdir', [project]);
  writeFileSync(join(project, 'package.json'), '{ "name": "user-project", "private": true, "type": "module" }\n');
  // --offline: the package needs nothing from the registry, so an install can never fetch a dependency.
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', packed.tarball], { cwd: project });
  bin = join(project, 'node_modules', '.bin', 'waste-operations-sandbox');
}, 120_000);

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(folder, { recursive: true, force: true });
});

/** Starts the installed bin and resolves once it prints where it listens. */
async function start(...args: string[]): Promise<RunningServer> {
  const server = await startCommand(bin, args);
  children.push(server.child);
  return server;
}

describe('the packed package, installed into an empty folder', () => {
  it('installs alone: no dependency beside it, the bundles, types and licenses in it', () => {
    const project = join(folder, 'project', 'node_modules');
    expect(readdirSync(project).filter((name) => !name.startsWith('.'))).toEqual(['waste-operations-sandbox']);
    const files = readdirSync(join(project, 'waste-operations-sandbox', 'dist'));
    expect(files.sort()).toEqual(['THIRD_PARTY_LICENSES.md', 'chunks', 'cli.js', 'docs-assets', 'index.js', 'prebuilt', 'types']);
    // The README's guides travel with it, so its links resolve in node_modules as on GitHub.
    const installed = join(project, 'waste-operations-sandbox');
    const linked = [...readFileSync(join(installed, 'README.md'), 'utf8').matchAll(/\]\((docs\/[\w-]+\.md)/g)].map(
      (match) => match[1] as string,
    );
    expect(linked.length).toBeGreaterThan(5);
    for (const guide of linked) expect(readdirSync(join(installed, 'docs')), guide).toContain(guide.slice('docs/'.length));
    // And the OpenAPI document the README links, to generate a client from node_modules too.
    expect(readFileSync(join(installed, 'openapi.json'), 'utf8')).toBe(readFileSync('openapi.json', 'utf8'));
  });

  it('its types hold together: every file a declaration imports is in the package', () => {
    const types = join(folder, 'project', 'node_modules', 'waste-operations-sandbox', 'dist', 'types');
    const missing: string[] = [];
    const walk = (file: string) => {
      for (const [, target] of readFileSync(join(types, file), 'utf8').matchAll(/from '(\.{1,2}\/[^']+)\.js'/g)) {
        const imported = join(dirname(file), `${target}.d.ts`);
        try {
          statSync(join(types, imported));
        } catch {
          missing.push(`${file} imports ${imported}`);
        }
      }
    };
    for (const file of readdirSync(types, { recursive: true })
      .map(String)
      .filter((name) => name.endsWith('.d.ts')))
      walk(file);
    expect(missing).toEqual([]);
  });

  it('its bin answers --version and --help, and a bad flag with exit code 2', async () => {
    expect((await run(bin, ['--version'])).stdout.trim()).toBe(version);
    expect((await run(bin, ['--help'])).stdout).toMatch(/trigger <type>/);
    const failed = await run(bin, ['--no-such-flag']).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 2, stderr: expect.stringMatching(/Unknown option '--no-such-flag'/) });
  });

  it('its bin starts and answers a list and the reference page, logging each request without the key', async () => {
    const server = await start('--port', '0', '--log');
    const list = await fetch(`${server.origin}/v1/jobs?limit=1`, { headers: { Authorization: `Bearer ${PUBLIC_KEY}` } });
    expect(list.status).toBe(200);
    expect((await list.json()).data).toHaveLength(1);
    const asset = await fetch(`${server.origin}/docs/swagger-ui-bundle.js`);
    expect(asset.status).toBe(200);
    expect((await asset.text()).length).toBeGreaterThan(1_000_000);
    const requestId = list.headers.get('Request-Id') as string;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.output()).toContain(`GET /v1/jobs?limit=1 200 `);
    expect(server.output()).toMatch(new RegExp(`GET /v1/jobs\\?limit=1 200 \\d+\\.\\dms ${requestId}`));
    // The start-up banner shows the public key in its curl example; request lines never carry a key.
    const requestLines = server
      .output()
      .split('\n')
      // A request line, with or without the time in front of it.
      .filter((line) => /^(\S+Z )?[A-Z]+ \//.test(line));
    expect(requestLines).toHaveLength(2);
    for (const line of requestLines) expect(line).not.toMatch(/svc_|Bearer/);
  });

  it('its library is imported by name: createSandbox answers in-process, the signing helpers work', async () => {
    const script = join(folder, 'project', 'use.mjs');
    writeFileSync(
      script,
      `import { createSandbox, signPayload, verifySignature } from 'waste-operations-sandbox';
const sandbox = createSandbox();
const response = await sandbox.fetch(new Request('http://sandbox.test/v1/clients?limit=1', { headers: { Authorization: 'Bearer ${PUBLIC_KEY}' } }));
const header = signPayload('{}', 'whsec_x');
console.log(JSON.stringify({ status: response.status, seed: sandbox.seed, verified: verifySignature('{}', header, 'whsec_x') }));
`,
    );
    const { stdout } = await run(process.execPath, [script], { cwd: join(folder, 'project') });
    expect(JSON.parse(stdout)).toEqual({ status: 200, seed: 'waste-ops-sandbox-v1', verified: true });
  });

  it('serves the default seed from its prebuilt data, without the generator (and faker) loaded; another seed generates', async () => {
    const chunks = join(folder, 'project', 'node_modules', 'waste-operations-sandbox', 'dist', 'chunks');
    const generator = readdirSync(chunks).find((name) => name.startsWith('generated-store-')) as string;
    expect(generator).toBeDefined();
    // Taken away, the default seed does not miss it: nothing on its path imports it.
    renameSync(join(chunks, generator), join(folder, generator));
    try {
      const server = await start('--port', '0');
      const response = await fetch(`${server.origin}/v1/jobs/job_wR79b7gPQg1ViA`, { headers: { Authorization: `Bearer ${PUBLIC_KEY}` } });
      expect(response.status).toBe(200);
    } finally {
      renameSync(join(folder, generator), join(chunks, generator));
    }
    const other = await start('--port', '0', '--seed', 'another-seed');
    const list = await fetch(`${other.origin}/v1/jobs?limit=1`, { headers: { Authorization: `Bearer ${PUBLIC_KEY}` } });
    expect(list.status).toBe(200);
    expect((await list.json()).data[0].id).not.toBe('job_wR79b7gPQg1ViA');
  });

  // On the copy, so this checkout's dist/ is never rebuilt under the suites that run it.
  it('npm start builds only when the sources changed since the last build', async () => {
    const server = join(copy, 'dist', 'server.js');
    const built = statSync(server).mtimeMs;
    await run(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: copy });
    expect(statSync(server).mtimeMs).toBe(built);
    const source = join(copy, 'src', 'cli', 'version.ts');
    const now = new Date();
    utimesSync(source, now, now);
    await run(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: copy });
    expect(statSync(server).mtimeMs).toBeGreaterThan(built);
  });

  it("runs the README's ten-line receiver against `trigger --all`: twelve deliveries, every signature verified", async () => {
    const project = join(folder, 'project');
    const port = await freePort();
    writeFileSync(join(project, 'receiver.mjs'), readmeExample('receiver').replace('.listen(4242)', `.listen(${port}, '127.0.0.1')`));
    const secret = 'whsec_readmeReceiverSecret';
    const receiver = spawn(process.execPath, ['receiver.mjs'], { cwd: project, env: { ...process.env, WEBHOOK_SECRET: secret } });
    children.push(receiver);
    let printed = '';
    receiver.stdout.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
    });
    const url = `http://127.0.0.1:${port}/webhooks`;
    await listening(port);
    const triggered = await run(bin, ['trigger', '--all', '--url', url, '--secret', secret]);
    expect(triggered.stdout).toMatch(/12 of 12 events delivered/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(printed.match(/^verified /gm)).toHaveLength(12);
    // A wrong secret is refused by the same receiver: 400 on every attempt, exit code 1.
    const refused = await run(bin, [
      'trigger',
      'job.created',
      '--url',
      url,
      '--secret',
      'whsec_wrong',
      '--attempts',
      '2',
      '--backoff',
      '0.01',
    ]).catch((error: { code: number; stdout: string }) => error);
    expect(refused).toMatchObject({ code: 1, stdout: expect.stringMatching(/attempt 2: 400/) });
    expect(refused.stdout).toMatch(
      /400: the receiver may have refused the signature; it must verify with the signing secret printed above/,
    );
  });

  it("the README's receiver, started without WEBHOOK_SECRET, stops at once and says what to set", async () => {
    const project = join(folder, 'project');
    writeFileSync(join(project, 'receiver-unset.mjs'), readmeExample('receiver').replace('.listen(4242)', `.listen(0, '127.0.0.1')`));
    const { WEBHOOK_SECRET: _, ...env } = process.env;
    const result = await run(process.execPath, ['receiver-unset.mjs'], { cwd: project, env, timeout: 10_000 }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(result).toMatchObject({ code: 1, stderr: expect.stringMatching(/Set WEBHOOK_SECRET to the whsec_ secret that trigger prints/) });
  });
});
