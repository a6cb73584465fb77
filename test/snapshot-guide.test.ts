// The recipes of docs/snapshot-tests.md (issue #16), run as they stand: the vitest recipe in two
// fresh processes (the first writes the snapshot, the second must match it), and the curl
// against the built server, whose answer must be the one the guide quotes.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningServer, startCli } from './cli-server.js';
import { DOCUMENTS, readmeExample } from './readme.js';

const run = promisify(execFile);
const folder = join('test', '.readme-examples', 'snapshot');
const servers: RunningServer[] = [];

afterAll(() => {
  for (const server of servers) server.stop();
  rmSync(folder, { recursive: true, force: true });
});

describe('docs/snapshot-tests.md', () => {
  it('the vitest recipe passes against two fresh sandboxes: the snapshot of the first run holds in the second', async () => {
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    // `.spec.ts`, so the outer suite (test/**/*.test.ts) never collects it itself.
    writeFileSync(join(folder, 'creates-a-job.spec.ts'), readmeExample('snapshot-vitest'));
    writeFileSync(
      join(folder, 'vitest.config.mts'),
      `export default { resolve: { alias: { 'waste-operations-sandbox': ${JSON.stringify(resolve('src/index.ts'))} } }, test: { include: ['*.spec.ts'] } };\n`,
    );
    const vitest = [resolve('node_modules/vitest/vitest.mjs'), 'run', '--root', folder];
    const first = await run(process.execPath, [...vitest, '--update'], { env: { ...process.env, CI: '', NO_COLOR: '1' } });
    expect(first.stdout).toMatch(/Snapshots\s+2 written/);
    const snapshot = readFileSync(join(folder, '__snapshots__', 'creates-a-job.spec.ts.snap'), 'utf8');
    expect(snapshot).toContain('"created_at": "2026-03-02T17:00:00Z"');
    // CI=true: vitest never writes a snapshot there, so a changed answer fails the run.
    const second = await run(process.execPath, vitest, { env: { ...process.env, CI: 'true', NO_COLOR: '1' } });
    expect(second.stdout).toMatch(/Tests\s+1 passed/);
    expect(second.stdout).not.toMatch(/written|obsolete/);
    expect(readFileSync(join(folder, '__snapshots__', 'creates-a-job.spec.ts.snap'), 'utf8')).toBe(snapshot);
  }, 60_000);

  it('the curl recipe answers the quoted bytes and Request-Id, twice', async () => {
    const server = await startCli(['--port', '0']);
    servers.push(server);
    const block = readmeExample('snapshot-curl').replaceAll('http://127.0.0.1:8787', server.origin);
    const answer = readmeExample('snapshot-curl-answer').trim();
    for (let time = 0; time < 2; time++) expect((await run('sh', ['-ec', block])).stdout).toBe(answer);
    const guide = DOCUMENTS.get(join('docs', 'snapshot-tests.md')) as string;
    const quotedRequestId = guide.match(/Its `Request-Id` is `(req_\w+)`/)?.[1];
    const withHeaders = await run('sh', ['-ec', block.replace('curl -s', 'curl -s -D -')]);
    expect(withHeaders.stdout).toMatch(new RegExp(`^Request-Id: ${quotedRequestId}\\r$`, 'mi'));
  });
});
