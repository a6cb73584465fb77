// The messages that teach, as the docs print them (issue #37, part 3): each is sent for and
// expected word for word, copied from the docs, never from src/. A change of wording, of the
// suggestion or of a number in it fails here.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';

const KEY = 'svc_test_sandbox_public';
/** A client and one of its sites in the default seed (docs/sample-data.md, README "Try it"). */
const CLIENT = 'cli_seII9pzPSgmmJJ';
const SITE = 'site_boDWBFERDT5aI9';
const ADDRESS = { line1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701' };

function send(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return createSandbox().fetch(
    new Request(`http://sandbox.test${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
}

async function errorOf(response: Response) {
  return ((await response.json()) as { error: { code: string; param?: string; message: string } }).error;
}

describe('docs/behaviour.md, "Error messages": the examples, word for word', () => {
  it.each([
    [
      'Invalid kind: must be one of hhw_program, commercial_industrial or laboratory; received "labratory". Did you mean "laboratory"?',
      () => send('/v1/clients', { name: 'Acme Labs', kind: 'labratory' }),
      { status: 400, code: 'parameter_invalid', param: 'kind' },
    ],
    [
      'Invalid client: must be the ID of a client, which begins with cli_; received "site_abc".',
      () => send('/v1/sites', { client: 'site_abc', name: 'Dock 4', address: ADDRESS }),
      { status: 400, code: 'parameter_invalid', param: 'client' },
    ],
    [
      'Invalid scheduled_for: must be a real calendar date as YYYY-MM-DD, such as 2025-06-02; received "2025-02-30".',
      () => send('/v1/jobs', { type: 'ci_pickup', client: CLIENT, site: SITE, scheduled_for: '2025-02-30' }),
      { status: 400, code: 'parameter_invalid', param: 'scheduled_for' },
    ],
    [
      'Received unknown parameter: stauts. Did you mean "status"?',
      () => send('/v1/jobs?stauts=scheduled'),
      { status: 400, code: 'parameter_invalid', param: 'stauts' },
    ],
    [
      `Received unknown parameter: cursor. Did you mean "starting_after"? Send the previous page's next_cursor as starting_after.`,
      () => send('/v1/jobs?cursor=job_wR79b7gPQg1ViA'),
      { status: 400, code: 'parameter_invalid', param: 'cursor' },
    ],
    [
      'No such client: "cli_doesnotexist0000"; client must name a client of the account your API key opens.',
      () => send('/v1/sites', { client: 'cli_doesnotexist0000', name: 'Dock 4', address: ADDRESS }),
      { status: 404, code: 'resource_missing', param: 'client' },
    ],
  ] as const)('%s', async (message, request, expected) => {
    const response = await request();
    expect(response.status).toBe(expected.status);
    expect(await errorOf(response)).toMatchObject({ code: expected.code, param: expected.param, message });
  });
});

describe('the numbers the messages teach', () => {
  it('a sent value is shown cut at 60 characters, with its length', async () => {
    // docs/behaviour.md, "Error messages": "A sent value is shown as JSON (quoted and escaped), cut
    // at 60 characters with its length when longer".
    const shown = async (characters: number) => {
      const error = await errorOf(await send('/v1/clients', { name: 'Acme Labs', kind: 'x'.repeat(characters) }));
      expect(error.param).toBe('kind');
      return error.message.match(/received (.*)$/)?.[1] ?? '';
    };
    // 60 characters: shown whole, no length.
    expect(await shown(60)).toBe(`"${'x'.repeat(60)}".`);
    // 61: its first 60 and its length.
    const cut = await shown(61);
    expect(cut).toContain('x'.repeat(60));
    expect(cut).not.toContain('x'.repeat(61));
    expect(cut).toContain('61 characters');
  });

  it('Sandbox-Simulate: a bad value names the values, and suggests a close one', async () => {
    // docs/testing-retries.md: "# 400 parameter_invalid, param "Sandbox-Simulate": ... Did you mean "api_error"?"
    // SANDBOX.md: "`delay=<ms>` … 0 to 60000".
    const error = await errorOf(await send('/v1/jobs', {}, { 'Sandbox-Simulate': 'api_eror' }));
    expect(error).toMatchObject({ code: 'parameter_invalid', param: 'Sandbox-Simulate' });
    expect(error.message).toMatch(/Did you mean "api_error"\?$/);
    for (const value of ['rate_limited', 'api_error', 'api_error_after_write', 'reset_after_write', 'duplicate_event', '60000'])
      expect(error.message).toContain(value);
  });

  it('a live key is told that live keys do not work in the sandbox', async () => {
    // SANDBOX.md, "Keys and accounts": "A `svc_live_` key answers 401 `api_key_invalid` with a
    // message saying that live keys do not work in the sandbox."
    const response = await createSandbox().fetch(
      new Request('http://sandbox.test/v1/jobs', { headers: { Authorization: 'Bearer svc_live_0123456789abcdef' } }),
    );
    expect(response.status).toBe(401);
    const error = await errorOf(response);
    expect(error.code).toBe('api_key_invalid');
    expect(error.message).toMatch(/live keys/i);
    expect(error.message).toMatch(/sandbox/i);
  });

  it('a key table entry with a misspelt scope: the 16 scopes, and the close one', () => {
    // README, "Configuration": "`scopes[0] must be one of the 16 scopes: …; received "job:write".
    // Did you mean "jobs:write"?`"
    expect(() => createSandbox({ keys: [{ key: 'svc_test_team_ci', account: 'A', scopes: ['job:write' as 'jobs:write'] }] })).toThrow(
      /scopes\[0\] must be one of the 16 scopes: .*; received "job:write"\. Did you mean "jobs:write"\?/,
    );
  });

  it('a key table entry: svc_test_ and 1 to 200 letters, digits or underscores', () => {
    // README, "Configuration": "each entry has a `key` (`svc_test_` and 1 to 200 letters, digits or underscores)".
    const table = (key: string) => [{ key, account: 'A' as const, scopes: '*' as const }];
    expect(() => createSandbox({ keys: table(`svc_test_${'a'.repeat(200)}`) })).not.toThrow();
    expect(() => createSandbox({ keys: table(`svc_test_${'a'.repeat(201)}`) })).toThrow(/1 to 200/);
    expect(() => createSandbox({ keys: table('svc_test_') })).toThrow(/1 to 200/);
  });
});
