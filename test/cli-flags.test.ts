// The command's flags as a user meets them (issue #25): --help in aligned columns, and a flag
// used wrongly answered in words that say what to write, never node:util's own.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CLI } from './cli-server.js';

const run = promisify(execFile);

async function failure(...args: string[]): Promise<{ code: number; stderr: string }> {
  return run(process.execPath, [CLI, ...args]).then(
    () => ({ code: 0, stderr: '' }),
    (error: { code: number; stderr: string }) => error,
  );
}

describe('the serve flags', () => {
  it('--help lists every flag with its variable in aligned columns', async () => {
    const { stdout } = await run(process.execPath, [CLI, '--help']);
    const rows = stdout
      .slice(stdout.indexOf('Serve flags'))
      .split('\n')
      .slice(1)
      .filter((line) => /^ {2}--[a-z]/.test(line) && /SANDBOX_|PORT|HOST/.test(line));
    expect(rows.map((row) => row.trim().split(/\s+/)[0])).toEqual([
      '--port',
      '--host',
      '--seed',
      '--rate-limit',
      '--keys',
      '--clock',
      '--webhook-url',
      '--webhook-secret',
      '--webhook-events',
      '--faults',
      '--trust-proxy',
    ]);
    // The variable and the description each start at one column on every row.
    const variableColumns = new Set(rows.map((row) => row.search(/ (PORT|HOST|SANDBOX_\w+)\b/)));
    const descriptionColumns = new Set(
      rows.map((row) => row.search(/(PORT|HOST|SANDBOX_\w+) +\S/) + (row.match(/(PORT|HOST|SANDBOX_\w+) +/)?.[0].length ?? 0)),
    );
    expect(variableColumns.size).toBe(1);
    expect(descriptionColumns.size).toBe(1);
  });

  it.each([
    [['--port'], /^--port needs a value after it, such as --port <value>/],
    [['--seed', '--log'], /^--seed needs a value after it/],
    [['--log=yes'], /^--log is a switch and takes no value: write --log alone\./],
    [
      ['serve', 'extra'],
      /^Unexpected argument 'extra': every setting is a flag with its value, such as --port 9000\. The flags are --port/,
    ],
  ])('%j exits 2 with a message that says what to write', async (args, message) => {
    const result = await failure(...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/argument missing|ambiguous|does not take an argument|positional/);
  });
});
