// The pinned clock on the built server (dist/cli.js) over a loopback socket: the same bytes as
// in-process (test/pinned-clock.test.ts, whose stored snapshot this compares with), and a clock
// that cannot be read stopping the server at start.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../src/index.js';
import { type RunningServer, startCli } from './cli-server.js';
import { PINNED_TIME, type ScriptAnswer, runScript } from './pinned-clock/script.js';

const GOLDEN = './pinned-clock/script.golden.json';
const golden = (answers: ScriptAnswer[]) => `${JSON.stringify(answers, null, 2)}\n`;
const servers: RunningServer[] = [];
afterAll(() => {
  for (const server of servers) server.stop();
});

/** The built command on a free loopback port (test/cli-server.ts), stopped after the file. */
async function startBuiltServer(...args: string[]): Promise<string> {
  const server = await startCli(['--port', '0', ...args]);
  servers.push(server);
  return server.origin;
}

describe('with Sandbox-Clock, the same script gets the same bytes', () => {
  it('on the built server over a loopback socket, as in-process', async () => {
    const origin = await startBuiltServer('--rate-limit', 'off');
    const answers = await runScript((request) => fetch(request), origin);
    await expect(golden(answers)).toMatchFileSnapshot(GOLDEN);
  });

  it('with the clock pinned for every request instead (--clock, createSandbox({ clock })): the same bytes', async () => {
    const origin = await startBuiltServer('--rate-limit', 'off', '--clock', PINNED_TIME);
    const fromFlag = await runScript((request) => fetch(request), origin, false);
    await expect(golden(fromFlag)).toMatchFileSnapshot(GOLDEN);
    const sandbox = createSandbox({ clock: new Date(`${PINNED_TIME.slice(0, -1)}.750Z`) });
    expect(await runScript((request) => sandbox.fetch(request), undefined, false)).toEqual(fromFlag);
  });
});

describe('a clock that cannot be read', () => {
  it('a bad SANDBOX_CLOCK or --clock stops the server at start, naming it', async () => {
    const failed = await promisify(execFile)(process.execPath, ['dist/server.js', '--port', '0', '--clock', 'tomorrow']).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed).toMatchObject({ code: 2, stderr: expect.stringMatching(/^--clock must be a UTC time/) });
    expect((failed as { stderr: string }).stderr).toContain('2026-03-02T17:00:00Z');
    const fromEnv = await promisify(execFile)(process.execPath, ['dist/server.js', '--port', '0'], {
      env: { ...process.env, SANDBOX_CLOCK: '2026-13-01T00:00:00Z' },
    }).catch((error: { code: number; stderr: string }) => error);
    expect(fromEnv).toMatchObject({ code: 2, stderr: expect.stringMatching(/^SANDBOX_CLOCK must be a UTC time/) });
  });
});
