// Issue #25: `npm run worker:build` prints no telemetry notice, and `npm run worker:dev` does the
// Worker's build work once per start (wrangler 4.86 runs the [build] command twice at start: the
// second run finds everything current). Issue #35: through wrangler dev's proxy, error answers to
// POSTs are the app's JSON (not wrangler's "503 … restarted mid-request") and a lost answer fails
// the client's read. Run in a copy of the sources in the OS temp directory, so edits made
// meanwhile in the checkout cannot start a rebuild.
import { execFile, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './cli-server.js';
import { curlReset, fetchReset, retryWithKey, sendErrorPosts } from './workerd-http/error-posts.js';

const run = promisify(execFile);
const copy = mkdtempSync(join(tmpdir(), 'waste-ops-worker-scripts-'));
for (const path of ['src', 'scripts', 'fixtures', 'package.json', 'package-lock.json', 'wrangler.toml', 'tsconfig.json']) {
  cpSync(path, join(copy, path), { recursive: true });
}
symlinkSync(resolve('node_modules'), join(copy, 'node_modules'));

afterAll(() => rmSync(copy, { recursive: true, force: true }));

const builds = (output: string) => ({
  written: output.match(/worker build: prebuilt sample data, docs assets and the Worker bundle written/g)?.length ?? 0,
  current: output.match(/worker build: prebuilt sample data, docs assets and the Worker bundle are current/g)?.length ?? 0,
});

describe('the Worker scripts', () => {
  it('worker:build builds once and prints no telemetry notice', async () => {
    const { stdout, stderr } = await run('npm', ['run', 'worker:build'], { cwd: copy, maxBuffer: 16 * 1024 * 1024 });
    const output = stdout + stderr;
    expect(output).toContain('--dry-run: exiting now.');
    expect(output).not.toMatch(/telemetry/i);
    expect(builds(output)).toEqual({ written: 1, current: 0 });
  }, 120_000);

  it('worker:dev does the build work once per start, answers errors as JSON and loses a reset answer', async () => {
    rmSync(join(copy, 'dist', 'prebuilt', '.worker-build-stamp'));
    const port = await freePort();
    // The rate limit off, so that a hundred requests in a row get the answers they ask for.
    const child = spawn('npm', ['run', 'worker:dev', '--', '--port', String(port), '--var', 'SANDBOX_RATE_LIMIT:off'], {
      cwd: copy,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    try {
      // Ready, and wrangler's second run of the [build] command (when its watcher is ready) done.
      for (let tries = 0; tries < 600 && !(output.includes('Ready on') && builds(output).written + builds(output).current >= 2); tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(output).toContain(`Ready on http://127.0.0.1:${port}`);
      expect(builds(output)).toEqual({ written: 1, current: 1 });
      const origin = `http://127.0.0.1:${port}`;
      const health = await fetch(`${origin}/health`);
      expect(health.status).toBe(200);

      // Before #35, about one in ten of these was wrangler's text/plain 503.
      await sendErrorPosts(origin, 100);
      const curlKey = `worker-dev-curl-${crypto.randomUUID()}`;
      const curl = await curlReset(origin, curlKey);
      expect(curl.status).toBe('201');
      expect([18, 56], curl.stderr).toContain(curl.code);
      expect((await retryWithKey(origin, curlKey)).headers.get('Idempotent-Replayed')).toBe('true');
      const lost = await fetchReset(origin, `worker-dev-fetch-${crypto.randomUUID()}`);
      expect(lost.status).toBe(201);
      await expect(lost.text()).rejects.toThrow(TypeError);
    } finally {
      // npm, wrangler and workerd: the whole group.
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }
  }, 120_000);
});
