// The recipes of docs/events-from-writes.md (issue #17), run as they stand, with free ports in
// place of 4242 and 8787: the toolkit guide's receiver, `npm start -- --webhook-url …` and a curl
// that creates a job, until the receiver prints "verified job.created"; and the in-process recipe.
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, listening } from './cli-server.js';
import { readmeExample } from './readme.js';
import { recipeProcesses, until } from './recipe-processes.js';

const run = promisify(execFile);
const folder = join('test', '.readme-examples', 'events');
const processes = recipeProcesses();

afterAll(() => {
  processes.stopAll();
  rmSync(folder, { recursive: true, force: true });
});

describe('docs/events-from-writes.md', () => {
  it('end to end: the receiver prints "verified job.created" for the job the curl created', async () => {
    const [receiverPort, sandboxPort] = [await freePort(), await freePort()];
    mkdirSync(folder, { recursive: true });
    // The toolkit guide's receiver; beside the package, `waste-operations-sandbox` is the clone's own build.
    writeFileSync(
      join(folder, 'receiver.mjs'),
      readmeExample('receiver').replace('.listen(4242)', `.listen(${receiverPort}, '127.0.0.1')`),
    );
    const lines = readmeExample('events-end-to-end')
      .replace(/\\\n\s*/g, '')
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('#'))
      .map((line) => line.replaceAll('4242', String(receiverPort)).replaceAll('8787', String(sandboxPort)));
    const [receiverLine, startLine, curlLine] = lines as [string, string, string];
    expect(receiverLine).toMatch(/^WEBHOOK_SECRET=whsec_\w+ node receiver\.mjs$/);
    expect(startLine).toMatch(/^npm start -- --webhook-url /);
    const received = await processes.background(receiverLine, folder);
    await listening(receiverPort);
    const sandboxOutput = await processes.background(`${startLine} --port ${sandboxPort}`, process.cwd(), /Webhook signing secret/);
    expect(sandboxOutput()).toContain(
      `Events of writes (job.created, job.scheduled, container.received) → http://127.0.0.1:${receiverPort}/webhooks`,
    );
    const created = await run('sh', ['-ec', curlLine.replace('curl ', 'curl -sS ')]);
    expect(JSON.parse(created.stdout)).toMatchObject({ object: 'job', status: 'draft' });
    await until(() => /verified job\.created/.test(received()), 'verified job.created');
    expect(received()).not.toContain('refused');
  }, 60_000);

  it('the in-process recipe runs and its assertions hold', async () => {
    mkdirSync(folder, { recursive: true });
    const file = join(folder, 'in-process.ts');
    writeFileSync(file, readmeExample('events-in-process'));
    await import(/* @vite-ignore */ `../${file}`);
  });

  it("the GitHub Actions workflow sends events to the receiver, whose secret is the action's output", () => {
    const recipe = readmeExample('github-actions');
    expect(recipe.match(/webhook-url: (\S+)/)?.[1]).toBe('http://127.0.0.1:4242/webhooks');
    expect(recipe).toMatch(/WEBHOOK_SECRET: \$\{\{ steps\.sandbox\.outputs\.webhook-secret \}\}/);
  });
});
