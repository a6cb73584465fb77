// Issue #19: the README is a front page a newcomer reads in two minutes, the rest is in guides
// under docs/, every link resolves, and the commands of both work as written: the blocks that
// can run offline are run here against the built command (dist/cli.js).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../src/auth/scopes.js';
import { readConfig } from '../src/config.js';
import { freePort, startCli, type RunningServer } from './cli-server.js';
import { DOCUMENTS, readmeExample } from './readme.js';

const run = promisify(execFile);
const README = DOCUMENTS.get('README.md') as string;

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(text: string): Set<string> {
  const outsideCode = text.replace(/```[\s\S]*?```/g, '');
  return new Set([...outsideCode.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1] as string)));
}

/** Runs a shell block with every curl answering only its status, one line each. */
async function statusesOf(block: string, origin: string): Promise<number[]> {
  const script = `curl() { command curl -sS -o /dev/null -w '%{http_code}\\n' "$@"; }\n${block.replaceAll('http://127.0.0.1:8787', origin)}`;
  const { stdout } = await run('sh', ['-ec', script]);
  return stdout.trim().split('\n').map(Number);
}

describe('the README', () => {
  it('is a front page of at most 200 lines', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(200);
  });

  it('lists the 16 scopes', () => {
    for (const scope of SCOPES) expect(README).toContain(`\`${scope}\``);
  });

  it('names every flag of the command in its configuration table, and its key table example is one the sandbox takes', async () => {
    const { stdout } = await run(process.execPath, ['dist/cli.js', '--help']);
    const flags = [...stdout.matchAll(/^ {2}(--[a-z-]+) /gm)].map((match) => match[1] as string);
    expect(flags).toContain('--port');
    for (const flag of flags.filter(
      // Flags of trigger and check-receiver, not of the server the table configures.
      (name) =>
        !['--log', '--help', '--url', '--secret', '--all', '--event', '--timeout', '--attempts', '--backoff', '--type', '--json'].includes(
          name,
        ),
    )) {
      expect(README, flag).toContain(`\`${flag}\``);
    }
    const keys = readConfig({ SANDBOX_KEYS: readmeExample('key-table') }).keys;
    expect(keys.map((key) => key.key)).toEqual(['svc_test_team_ci', 'svc_test_team_jobs']);
  });
});

describe('the README and the guides', () => {
  it('link only to files and headings that exist', () => {
    const problems: string[] = [];
    for (const [path, text] of DOCUMENTS) {
      const outsideCode = text.replace(/```[\s\S]*?```/g, '');
      for (const [, target] of outsideCode.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (target === undefined || /^[a-z]+:/.test(target)) continue;
        const [file, anchor] = target.split('#') as [string, string | undefined];
        const linked = file === '' ? path : normalize(join(dirname(path), file));
        if (!existsSync(linked)) {
          problems.push(`${path}: ${target} (no file ${linked})`);
          continue;
        }
        const linkedText = DOCUMENTS.get(linked);
        if (anchor !== undefined && linkedText !== undefined && !anchorsOf(linkedText).has(anchor)) {
          problems.push(`${path}: ${target} (no heading #${anchor} in ${linked})`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('link every guide from the README', () => {
    for (const path of DOCUMENTS.keys()) if (path !== 'README.md') expect(README, path).toContain(`](${path}`);
  });

  it('say, wherever npx starts the sandbox, that the package is not published yet and what works today', () => {
    for (const [path, text] of DOCUMENTS) {
      if (!text.includes('npx waste-operations-sandbox')) continue;
      expect(text, path).toMatch(/not published/);
      expect(text, path).toMatch(/npm install \.\/waste-operations-sandbox-\d+\.\d+\.\d+\.tgz|docs\/toolkit\.md#run-it-without-a-clone/);
    }
  });

  it('name the tarball npm pack makes', () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(readmeExample('install-tarball')).toContain(`npm install ./waste-operations-sandbox-${version}.tgz`);
  });
});

describe('the commands of the README and the guides, run against the built command', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startCli(['--port', '0', '--rate-limit', 'off']);
  });

  afterAll(() => server?.stop());

  it("the README's try-it block answers as its comments say", async () => {
    expect(await statusesOf(readmeExample('try-it'), server.origin)).toEqual([200, 201, 200, 201]);
  });

  it('the body for every create endpoint answers 201 as written', async () => {
    const block = readmeExample('create-bodies');
    expect(block.match(/POST http:\/\/127\.0\.0\.1:8787\/v1\/(\w+)/g)).toEqual(
      ['clients', 'sites', 'waste_profiles', 'jobs', 'manifests', 'webhook_endpoints'].map(
        (name) => `POST http://127.0.0.1:8787/v1/${name}`,
      ),
    );
    expect(await statusesOf(block, server.origin)).toEqual([201, 201, 201, 201, 201, 201]);
  });
});

// The GitHub Action itself runs in test/action.test.ts.
describe('the CI steps by hand', () => {
  const folder = mkdtempSync(join(tmpdir(), 'sandbox-ci-recipe-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("start the clone's build in the background and wait for it, as they are written", async () => {
    const [build, start, wait] = readmeExample('ci-by-hand').trim().split('\n') as [string, string, string];
    expect(build).toBe('npm ci && npm run build');
    expect(start).toMatch(/^node dist\/cli\.js .*&$/);
    // The clone, built: this one, whose dist/ the test run built.
    symlinkSync(join(process.cwd(), 'dist'), join(folder, 'dist'));
    // A port the system just gave out, not a random one: a random port can be held by another
    // suite's listener, which never answers /health, and the wait then runs out.
    const port = String(await freePort());
    const script = `${start.replaceAll('8787', port)}\necho $! > server.pid\n${wait.replaceAll('8787', port)} > health.txt`;
    try {
      await run('sh', ['-ec', script], { cwd: folder });
      expect(readFileSync(join(folder, 'health.txt'), 'utf8')).toContain('{"status":"ok"}');
    } finally {
      const pid = Number((await run('cat', ['server.pid'], { cwd: folder }).catch(() => ({ stdout: '' }))).stdout);
      if (pid > 0) process.kill(pid, 'SIGKILL');
    }
  });
});
