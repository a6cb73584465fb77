// Issue #34: the sandbox as a container image (docs/container.md). `npm run image` as the guide
// runs it, then the container's contract checked through a real engine: the port and PORT, the
// user, the health check, the labels, the ready line, --read-only, the SANDBOX_* variables, a
// bad configuration's exit 2, `docker stop`'s exit 0, the same image ID from the same inputs, the
// arm64 variant (run under qemu), and the guide's recipes. The engine runs containers on the
// host's network (TOOLCHAIN: no bridge here), so each container gets its own free PORT.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './cli-server.js';
import { docker, dockerAvailable, dockerResult } from './docker.js';
import { readmeExample } from './readme.js';

const run = promisify(execFile);
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { name: string; version: string; description: string };
const IMAGE = 'waste-operations-sandbox';
const KEY = 'svc_test_sandbox_public';
/** The contract's line (SANDBOX.md, "Running in a container"; docs/container.md). */
const READY_LINE = 'Waste Operations API sandbox ready';
const started: string[] = [];
const scratch = mkdtempSync(join(tmpdir(), 'container-test-'));

afterAll(() => {
  for (const id of started) dockerResult(['rm', '-f', id]);
  rmSync(scratch, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` gives a value (not undefined), for at most `seconds`. */
async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined, seconds = 30): Promise<T> {
  for (let end = Date.now() + seconds * 1000; Date.now() < end; await sleep(100)) {
    const value = await check();
    if (value !== undefined) return value;
  }
  throw new Error(`${what}: not within ${seconds} s`);
}

async function get(url: string, key: string | undefined = KEY): Promise<Response | undefined> {
  try {
    return await fetch(url, key === undefined ? {} : { headers: { Authorization: `Bearer ${key}` } });
  } catch {
    return undefined;
  }
}

/** `docker run -d` of the image on the host's network, on a free port; resolves once it answers /health. */
async function runContainer(args: readonly string[] = [], after: readonly string[] = []) {
  const port = await freePort();
  const id = docker(['run', '-d', '--network', 'host', '--read-only', '-e', `PORT=${port}`, ...args, `${IMAGE}:latest`, ...after]).trim();
  started.push(id);
  const origin = `http://127.0.0.1:${port}`;
  await until(`the container on ${origin}`, async () => ((await get(`${origin}/health`, undefined))?.status === 200 ? true : undefined));
  return { id, origin, port };
}

/** Once for the file: one line says it was skipped when there is no engine. */
const engine = dockerAvailable('test/container.test.ts (the container image, amd64 and arm64)');

const inspect = (id: string, format: string) => docker(['inspect', id, '--format', format]).trim();

describe.runIf(engine)('the container image', () => {
  let built = '';

  beforeAll(async () => {
    const { stdout } = await run('npm', ['run', 'image'], { maxBuffer: 16 * 1024 * 1024 });
    built = stdout;
  }, 300_000);

  it('`npm run image` loads <name>:<version> and :latest, one image', () => {
    expect(built).toContain(`Loaded image: ${IMAGE}:${pkg.version}`);
    expect(built).toContain(`Loaded image: ${IMAGE}:latest`);
    expect(docker(['image', 'inspect', `${IMAGE}:${pkg.version}`, '--format', '{{.Id}}'])).toBe(
      docker(['image', 'inspect', `${IMAGE}:latest`, '--format', '{{.Id}}']),
    );
  });

  it('declares its port, a non-root user, an exec-form health check, its entry point and the OCI labels', () => {
    const config = JSON.parse(docker(['image', 'inspect', `${IMAGE}:latest`, '--format', '{{json .Config}}'])) as {
      User: string;
      ExposedPorts: Record<string, unknown>;
      Healthcheck: { Test: string[] };
      Labels: Record<string, string>;
      Env: string[];
    };
    expect(Object.keys(config.ExposedPorts)).toEqual(['8787/tcp']);
    expect(config.User).not.toMatch(/^(0|root)(:|$)/);
    expect(config.User).toBe('65532:65532');
    // CMD, not CMD-SHELL: the image has no shell.
    expect(config.Healthcheck.Test[0]).toBe('CMD');
    expect(config.Env).toEqual(expect.arrayContaining(['PORT=8787', 'HOST=0.0.0.0']));
    expect(config.Labels).toMatchObject({
      'org.opencontainers.image.version': pkg.version,
      'org.opencontainers.image.description': pkg.description,
    });
    for (const label of ['source', 'licenses']) expect(config.Labels[`org.opencontainers.image.${label}`]).toMatch(/\S/);
    expect(dockerResult(['run', '--rm', '--entrypoint', '/bin/sh', `${IMAGE}:latest`, '-c', 'true']).status).not.toBe(0);
  });

  it('answers the README request from a read-only container, prints the ready line, runs as 65532, turns healthy', async () => {
    const { id, origin } = await runContainer();
    const response = await get(`${origin}/v1/jobs?limit=2`);
    expect(response?.status).toBe(200);
    const body = (await response?.json()) as { object: string; data: { id: string }[]; has_more: boolean };
    expect(body.object).toBe('list');
    expect(body.data).toHaveLength(2);
    expect(body.data.every((job) => job.id.startsWith('job_'))).toBe(true);
    await until('the ready line', () => (docker(['logs', id]).split('\n').includes(READY_LINE) ? true : undefined));
    expect(docker(['exec', id, '/usr/local/bin/node', '-p', 'process.getuid() + ":" + process.getgid()']).trim()).toBe('65532:65532');
    expect(inspect(id, '{{.HostConfig.ReadonlyRootfs}}')).toBe('true');
    await until('healthy', () => (inspect(id, '{{.State.Health.Status}}') === 'healthy' ? true : undefined), 60);
  });

  it('`docker stop` and SIGINT end it with status 0 (handled by Node as PID 1, not killed)', async () => {
    const { id, port } = await runContainer();
    docker(['stop', '--time', '30', id]);
    // 137 would be SIGKILL at the end of the grace: the server ignored SIGTERM.
    expect(inspect(id, '{{.State.ExitCode}}')).toBe('0');
    expect(await get(`http://127.0.0.1:${port}/health`, undefined)).toBeUndefined();
    // Ctrl-C in `docker run -it` is a SIGINT: the same.
    const interrupted = await runContainer();
    docker(['kill', '--signal', 'INT', interrupted.id]);
    await until('the end after SIGINT', () => (inspect(interrupted.id, '{{.State.Running}}') === 'false' ? true : undefined));
    expect(inspect(interrupted.id, '{{.State.ExitCode}}')).toBe('0');
  });

  it('reads the SANDBOX_* variables as on Node: a key table, a pinned clock, a seed', async () => {
    const table = JSON.stringify([{ key: 'svc_test_container_ci', account: 'A', scopes: '*' }]);
    const clock = '2026-03-02T17:00:00Z';
    const { origin } = await runContainer(['-e', `SANDBOX_KEYS=${table}`, '-e', `SANDBOX_CLOCK=${clock}`, '-e', 'SANDBOX_RATE_LIMIT=off']);
    expect((await get(`${origin}/v1/clients?limit=1`))?.status).toBe(401);
    const created = await fetch(`${origin}/v1/clients`, {
      method: 'POST',
      headers: { Authorization: 'Bearer svc_test_container_ci', 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Container Labs', kind: 'laboratory' }),
    });
    expect(created.status).toBe(201);
    expect(((await created.json()) as { created_at: string }).created_at).toBe(clock);
    // Off: 40 requests at once, over the default 25 a second, and no 429 (SANDBOX.md: `off` disables it).
    const statuses = await Promise.all(
      Array.from({ length: 40 }, async () => (await get(`${origin}/v1/clients?limit=1`, 'svc_test_container_ci'))?.status),
    );
    expect(statuses.every((status) => status === 200)).toBe(true);

    const seeded = await runContainer(['-e', 'SANDBOX_SEED=another-seed']);
    const first = async (origin: string) => {
      const response = await get(`${origin}/v1/clients?limit=1`);
      return ((await response?.json()) as { data: { id: string }[] } | undefined)?.data[0]?.id;
    };
    const defaultSeed = await runContainer();
    expect(await first(seeded.origin)).not.toBe(await first(defaultSeed.origin));
  });

  it('takes the same flags as the command after the image name', async () => {
    const { origin } = await runContainer([], ['--clock', '2026-03-02T17:00:00Z']);
    const created = await fetch(`${origin}/v1/clients`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Flag Labs', kind: 'laboratory' }),
    });
    expect(((await created.json()) as { created_at: string }).created_at).toBe('2026-03-02T17:00:00Z');
  });

  it('a bad configuration exits 2 with the same message as on Node', () => {
    const inContainer = dockerResult(['run', '--rm', '--network', 'none', '-e', 'SANDBOX_RATE_LIMIT=fast', `${IMAGE}:latest`]);
    expect(inContainer.status).toBe(2);
    expect(inContainer.stderr).toContain('SANDBOX_RATE_LIMIT');
    expect(inContainer.stderr).toContain('"fast"');
    let onNode = '';
    try {
      execFileSync(process.execPath, ['dist/cli.js'], { env: { ...process.env, SANDBOX_RATE_LIMIT: 'fast' }, stdio: 'pipe' });
    } catch (error) {
      expect((error as { status: number }).status).toBe(2);
      onNode = String((error as { stderr: Buffer }).stderr);
    }
    expect(inContainer.stderr).toBe(onNode);
  });

  it('the same inputs give the same image ID, and the file holds an OCI layout docker loads', () => {
    const first = join(scratch, 'first.tar');
    const second = join(scratch, 'second.tar');
    const ids = [first, second].map((output) => {
      const printed = execFileSync('npm', ['run', 'image', '--', '--output', output], { encoding: 'utf8' });
      return printed.match(/(sha256:[0-9a-f]{64})/)?.[1];
    });
    expect(ids[0]).toMatch(/^sha256:/);
    expect(ids[1]).toBe(ids[0]);
    expect(readFileSync(second).equals(readFileSync(first))).toBe(true);
    // And `docker load` of the same build keeps that ID (Docker's image ID is the configuration's digest).
    const tag = `${IMAGE}:same-inputs`;
    execFileSync('npm', ['run', 'image', '--', '--tag', tag], { stdio: 'pipe' });
    expect(docker(['image', 'inspect', tag, '--format', '{{.Id}}']).trim()).toBe(ids[0]);
    docker(['rmi', tag]);
    const listing = execFileSync('tar', ['-tf', first], { encoding: 'utf8' }).split('\n');
    expect(listing).toEqual(expect.arrayContaining(['oci-layout', 'index.json', 'manifest.json']));
  });

  it('the README one-liner and the guide`s `docker run` start it', async () => {
    for (const line of [readmeExample('docker-run'), readmeExample('docker-run-guide')]) {
      const port = await freePort();
      // `-p HOST:8787` needs a bridge network; this engine has none, so the host's network and PORT stand for it.
      const args = line
        .trim()
        .split(/\s+/)
        .slice(1)
        .flatMap((word, index, words) =>
          word === '-p' ? [] : words[index - 1] === '-p' ? ['--network', 'host', '-e', `PORT=${port}`] : [word],
        )
        .map((word) => (word === '--rm' ? '-d' : word));
      expect(args).toContain(IMAGE);
      const id = docker(args).trim();
      started.push(id);
      const response = await until('the one-liner', () => get(`http://127.0.0.1:${port}/v1/jobs?limit=1`));
      expect(response.status).toBe(200);
    }
  });

  it('the GitHub Actions `services:` recipe: its image, env and port start a container its step reaches', async () => {
    const workflow = parse(readmeExample('github-services')) as {
      jobs: Record<
        string,
        { services: Record<string, { image: string; ports: string[]; env: Record<string, string> }>; steps: { run: string }[] }
      >;
    };
    const job = Object.values(workflow.jobs)[0];
    const service = Object.values(job?.services ?? {})[0];
    expect(service?.image).toMatch(new RegExp(`/${IMAGE}:${pkg.version.replaceAll('.', '\\.')}$`));
    expect(service?.ports).toEqual(['8787:8787']);
    const env = Object.entries(service?.env ?? {}).flatMap(([name, value]) => ['-e', `${name}=${value}`]);
    const { origin } = await runContainer(env);
    const step = job?.steps[0]?.run ?? '';
    const { stdout } = await run('sh', ['-ec', step.replaceAll('http://127.0.0.1:8787', origin)]);
    expect((JSON.parse(stdout) as { object: string }).object).toBe('list');
  });

  it('the GitLab CI `services:` recipe: its image, alias and variables start a container the job`s script reaches', async () => {
    const pipeline = parse(readmeExample('gitlab-services')) as Record<
      string,
      {
        services: { name: string; alias: string; variables: Record<string, string> }[];
        variables: Record<string, string>;
        script: string[];
      }
    >;
    const job = Object.values(pipeline)[0];
    const service = job?.services[0];
    expect(service?.name).toMatch(new RegExp(`/${IMAGE}:${pkg.version.replaceAll('.', '\\.')}$`));
    const url = new URL(job?.variables.WASTE_OPS_API_URL ?? '');
    // The job reaches the service by its alias, on the container's port.
    expect(url.hostname).toBe(service?.alias);
    expect(url.port).toBe('8787');
    const env = Object.entries(service?.variables ?? {}).flatMap(([name, value]) => ['-e', `${name}=${value}`]);
    const port = await freePort();
    const id = docker(['run', '-d', '--network', 'host', '--read-only', '-e', `PORT=${port}`, ...env, `${IMAGE}:latest`]).trim();
    started.push(id);
    await until('the GitLab service', () => get(`http://127.0.0.1:${port}/health`, undefined));
    for (const line of job?.script ?? []) {
      const { stdout } = await run('sh', ['-ec', line], {
        env: { ...process.env, ...job?.variables, WASTE_OPS_API_URL: `http://127.0.0.1:${port}` },
      });
      expect(stdout.trim()).toBe('200');
    }
  });
});

describe.runIf(engine)('the arm64 variant', () => {
  const qemu = ['/usr/bin/qemu-aarch64-static', '/usr/bin/qemu-aarch64'].find((path) => existsSync(path));
  const runnable = qemu !== undefined || process.env.CI === 'true';
  if (qemu === undefined && process.env.CI !== 'true')
    console.log(
      'test/container.test.ts (the arm64 variant, run): skipped, no qemu-aarch64-static (Debian: qemu-user-static); .ci/run installs it.',
    );

  it('builds for linux/arm64: an aarch64 Node with aarch64 libraries, and it serves under qemu', async () => {
    const archive = join(scratch, 'arm64.tar');
    execFileSync('npm', ['run', 'image', '--', '--platform', 'linux/arm64', '--output', archive], { stdio: 'pipe' });
    const root = join(scratch, 'arm64');
    const layout = join(scratch, 'arm64-layout');
    execFileSync('mkdir', ['-p', root, layout]);
    execFileSync('tar', ['-xf', archive, '-C', layout]);
    const [manifest] = JSON.parse(readFileSync(join(layout, 'manifest.json'), 'utf8')) as { Config: string; Layers: string[] }[];
    const config = JSON.parse(readFileSync(join(layout, manifest?.Config ?? ''), 'utf8')) as { architecture: string; os: string };
    expect(config).toMatchObject({ architecture: 'arm64', os: 'linux' });
    for (const layer of manifest?.Layers ?? []) execFileSync('tar', ['-xf', join(layout, layer), '-C', root]);
    // ELF e_machine 183 is AArch64.
    expect(readFileSync(join(root, 'usr/local/bin/node')).readUInt16LE(18)).toBe(183);
    expect(readFileSync(join(root, 'lib/aarch64-linux-gnu/libc.so.6')).readUInt16LE(18)).toBe(183);
    if (!runnable) return;
    expect(qemu, 'CI=true skips nothing: .ci/run installs qemu-user-static').toBeDefined();
    const port = await freePort();
    const child = spawn(
      qemu as string,
      ['-L', root, join(root, 'usr/local/bin/node'), join(root, 'app/dist/cli.js'), '--port', String(port)],
      {
        stdio: 'ignore',
      },
    );
    try {
      const response = await until('the arm64 server under qemu', () => get(`http://127.0.0.1:${port}/v1/jobs?limit=1`), 120);
      expect(response.status).toBe(200);
    } finally {
      child.kill('SIGKILL');
    }
  }, 300_000);
});
