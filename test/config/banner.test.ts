// The start-up banner's description of SANDBOX_FAULTS (docs/testing-retries.md, "Random faults
// for soak tests"): the server says which random faults it gives, in the form the variable takes,
// as it read them (trimmed, each fraction as a number, a delay with its milliseconds), in the
// order given. The serve command runs here in-process, on a free loopback port, and is closed as
// soon as its banner is out.
import { Server } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { serve } from '../../src/cli/serve.js';

/** The banner of `serve` with these flags, the server closed once it is printed. */
async function banner(args: string[]): Promise<string[]> {
  const lines: string[] = [];
  let ready: () => void = () => {};
  const printed = new Promise<void>((resolve) => {
    ready = resolve;
  });
  const log = vi.spyOn(console, 'log').mockImplementation((line: unknown) => {
    lines.push(String(line));
    if (String(line) === 'Waste Operations API sandbox ready') ready();
  });
  const listen = vi.spyOn(Server.prototype, 'listen');
  const signals = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
  let servers: Server[] = [];
  try {
    expect(serve(['--port', '0', '--host', '127.0.0.1', ...args])).toBeUndefined();
    await printed;
  } finally {
    log.mockRestore();
    servers = listen.mock.contexts as Server[];
    listen.mockRestore();
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      for (const stop of process.listeners(signal)) if (!signals[signal].includes(stop)) process.off(signal, stop);
    }
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }
  // The one server it started, now closed.
  expect(servers).toHaveLength(1);
  return lines;
}

describe('the banner', () => {
  it('describes the random faults as read, in the order given', async () => {
    const lines = await banner(['--faults', ' api_error = 0.02 , delay=0.05:1500,reset_after_write=.01']);
    expect(lines.filter((line) => line.startsWith('Random faults'))).toEqual([
      'Random faults on /v1 requests: api_error=0.02,delay=0.05:1500,reset_after_write=0.01 (docs/testing-retries.md)',
    ]);
  });

  it('a delay of 0 ms keeps its :0; one fault alone has no comma', async () => {
    const lines = await banner(['--faults', 'delay=1:0']);
    expect(lines.filter((line) => line.startsWith('Random faults'))).toEqual([
      'Random faults on /v1 requests: delay=1:0 (docs/testing-retries.md)',
    ]);
  });
});
