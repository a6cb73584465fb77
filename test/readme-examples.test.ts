// The README's in-process examples, run as they stand there (issue #7, item 6), so the README
// cannot drift from the package: each block is written to a module and imported, with
// 'waste-operations-sandbox' resolved to src/index.ts (vitest.config.ts). The blocks assert.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readmeExample } from './readme.js';

// A folder of its own: the guides' tests write beside it (test/.readme-examples/<guide>) and may
// run at the same time, so this file removes only what it wrote.
const folder = join('test', '.readme-examples', 'readme');

afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function runExample(name: string): Promise<void> {
  mkdirSync(folder, { recursive: true });
  const file = join(folder, `${name}.ts`);
  writeFileSync(file, readmeExample(name));
  await import(/* @vite-ignore */ `../${file}`);
}

describe('README examples', () => {
  it('in-process with a custom fetch runs and its assertions hold', async () => {
    expect(readmeExample('in-process-fetch')).toContain("from 'waste-operations-sandbox'");
    await runExample('in-process-fetch');
  });

  it('in-process with MSW runs and its assertions hold', async () => {
    expect(readmeExample('in-process-msw')).toContain('setupServer');
    await runExample('in-process-msw');
  });
});
