// Issue #19: the guide's "Generate a typed client" recipe, run as written: openapi-typescript
// makes types from the running sandbox's /openapi.json, and the guide's openapi-fetch program
// type-checks under strict, noUncheckedIndexedAccess and exactOptionalPropertyTypes, then runs
// against createSandbox(). A schema or route change that breaks typed clients fails here.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli, type RunningServer } from './cli-server.js';
import { readmeExample } from './readme.js';

const run = promisify(execFile);
// Inside the repository, so the program finds openapi-fetch in node_modules as a project would.
const folder = join('test', '.typed-client');
let server: RunningServer;

beforeAll(async () => {
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  server = await startCli(['--port', '0', '--rate-limit', 'off']);
});

afterAll(() => {
  server?.stop();
  rmSync(folder, { recursive: true, force: true });
});

describe('a typed client generated from /openapi.json', () => {
  it('is generated, type-checks strictly and runs against createSandbox()', async () => {
    // The recipe's own command; installing the three packages is left out (they are dev dependencies here).
    const generate = readmeExample('typed-client-generate')
      .split('\n')
      .find((line) => line.startsWith('npx openapi-typescript')) as string;
    expect(generate).toContain('http://127.0.0.1:8787/openapi.json');
    await run('sh', ['-ec', generate.replaceAll('http://127.0.0.1:8787', server.origin)], { cwd: folder });
    const types = readFileSync(join(folder, 'waste-ops-api.d.ts'), 'utf8');
    expect(types).toContain('"/v1/jobs/{id}"');
    // The error schema's name cannot shadow the global Error in generated code.
    expect(types).toContain('ErrorResponse: {');
    expect(types).not.toMatch(/\bError: \{/);

    writeFileSync(join(folder, 'program.ts'), readmeExample('typed-client'));
    // The package's types as a user gets them (its declarations, as `npm pack` makes them).
    await run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.types.json', '--outDir', join(folder, 'types')]);
    writeFileSync(
      join(folder, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          lib: ['ES2022', 'DOM'],
          types: ['node'],
          strict: true,
          noUncheckedIndexedAccess: true,
          exactOptionalPropertyTypes: true,
          skipLibCheck: true,
          noEmit: true,
          paths: { 'waste-operations-sandbox': ['./types/index.d.ts'] },
        },
        files: ['program.ts'],
      }),
    );
    const checked = await run(process.execPath, [resolve('node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: folder }).catch(
      (error: { stdout: string }) => error,
    );
    expect(checked.stdout).toBe('');

    // Runs as it stands; its assertions hold ('waste-operations-sandbox' is src/index.ts here).
    await import(/* @vite-ignore */ resolve(folder, 'program.ts'));
  }, 60_000);
});
