// Issue #34: the guide's Testcontainers recipe (docs/container.md, "Testcontainers for Node")
// run as written against the image `npm run image` builds. testcontainers 12 needs Node 22.22 or
// later: the recipe runs under this Node when it is recent enough, else under Node 22 from the
// npm registry (scripts/node-versions.mjs --fetch, the binary npm test's Node 22 pass uses), so it
// runs on every machine that has an engine. Its reaper image is on Docker Hub, which no machine
// here reaches: it is switched off, and the recipe stops its container itself. On an engine
// without a bridge network (TOOLCHAIN.md), the host's network and PORT stand for the mapped port.
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './cli-server.js';
import { dockerAvailable, dockerResult } from './docker.js';
import { readmeExample } from './readme.js';

const run = promisify(execFile);
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const recentNode = major > 22 || (major === 22 && minor >= 22);

/** A Node that testcontainers runs on: this one, or the registry's Node 22. */
function recipeNode(): string {
  if (recentNode) return process.execPath;
  const printed = execFileSync(process.execPath, ['scripts/node-versions.mjs', '--fetch', '22'], { encoding: 'utf8' });
  return printed.trim().split('\n').pop() as string;
}
// Inside the project, so the recipe's `import 'testcontainers'` finds the package.
mkdirSync(join('node_modules', '.cache'), { recursive: true });
const scratch = mkdtempSync(join('node_modules', '.cache', 'testcontainers-recipe-'));
const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.runIf(dockerAvailable('test/container-testcontainers.test.ts'))('the Testcontainers recipe', () => {
  it('starts the image with a wait on its health check, reads a list, stops it', async () => {
    execFileSync('npm', ['run', 'image'], { stdio: 'pipe' });
    const recipe = readmeExample('testcontainers-node');
    const bridged = dockerResult(['network', 'inspect', 'bridge']).status === 0;
    const port = await freePort();
    const script = bridged
      ? recipe
      : recipe
          .replace('.withExposedPorts(8787)', `.withNetworkMode('host')`)
          .replace("SANDBOX_RATE_LIMIT: 'off'", `SANDBOX_RATE_LIMIT: 'off', PORT: '${port}'`)
          .replace('sandbox.getMappedPort(8787)', String(port));
    expect(script).toContain('Wait.forHealthCheck()');
    expect(script).toContain(`'waste-operations-sandbox:${version}'`);
    const file = join(scratch, 'recipe.mjs');
    writeFileSync(file, script);
    const { stdout } = await run(recipeNode(), [file], {
      env: { ...process.env, TESTCONTAINERS_RYUK_DISABLED: 'true', TESTCONTAINERS_HOST_OVERRIDE: '127.0.0.1' },
      timeout: 180_000,
    });
    expect(stdout.trim()).toBe('200');
    // The recipe stopped its container: none of the image is left running.
    expect(dockerResult(['ps', '--filter', `ancestor=waste-operations-sandbox:${version}`, '--quiet']).stdout.trim()).toBe('');
  }, 240_000);
});
