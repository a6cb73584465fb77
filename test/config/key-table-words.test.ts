// The key table as each way in takes it (README, "Configuration": "A key table is a JSON array;
// each entry has a `key` (`svc_test_` and 1 to 200 letters, digits or underscores), an `account`
// (`"A"` or `"B"`), `scopes` (`"*"` or an array of the scopes above) and, optionally,
// `"revoked": true` and `"shared": true`"): SANDBOX_KEYS (the Node server's variable and a
// Worker's [vars], both read by readConfig), --keys (the CLI's flag, readText with the flag given)
// and createSandbox({ keys }), entries or their JSON text. A table that cannot be used is refused
// with words that name the way it came in, the entry and the field, say what it must be and what
// was received (never a key that may be real), and suggest a close value; a table that can be used
// decides who is authenticated, with which scopes, on which account.
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../src/config.js';
import { readText } from '../../src/config/sources.js';
import { createSandbox, type SandboxKey } from '../../src/index.js';
import { problem } from './problem.js';

const EXAMPLE = '[{"key":"svc_test_mine","account":"A","scopes":"*"}]';
const SIXTEEN_SCOPES =
  'clients:read, clients:write, sites:read, sites:write, profiles:read, profiles:write, jobs:read, jobs:write, containers:read, containers:write, manifests:read, manifests:write, invoices:read, webhooks:read, webhooks:write or events:read';

/** The message for one table, through SANDBOX_KEYS, --keys and createSandbox({ keys }) as text. */
function eachWay(table: string): { variable: string; flag: string; option: string } {
  return {
    variable: problem(() => readConfig({ SANDBOX_KEYS: table })),
    flag: problem(() => readText({ SANDBOX_KEYS: table }, new Set(['SANDBOX_KEYS']))),
    option: problem(() => createSandbox({ keys: table })),
  };
}

/** The same words after each way's name. */
function named(rest: string): { variable: string; flag: string; option: string } {
  return { variable: `SANDBOX_KEYS ${rest}`, flag: `--keys ${rest}`, option: `createSandbox({ keys }) ${rest}` };
}

describe('a key table that is not a list of keys', () => {
  it.each([
    [
      'an object (one key without its brackets)',
      '{"key":"svc_test_x","account":"A","scopes":"*"}',
      'an object. Put the one key in brackets: [{…}].',
    ],
    ['null', 'null', 'null.'],
    ['a number', '5', '5.'],
    ['a string', '"svc_test_x"', '"svc_test_x".'],
    ['true', 'true', 'true.'],
  ])('%s: it must be a JSON array of keys, with the brackets hint only for an object', (_case, table, received) => {
    expect(eachWay(table)).toEqual(
      named(`is not a valid key table: it must be a JSON array of keys such as ${EXAMPLE}; received ${received}`),
    );
  });

  it('an empty list: it must list at least one key', () => {
    expect(eachWay('[]')).toEqual(
      named(`is not a valid key table: it must list at least one key, such as ${EXAMPLE}; received an empty array.`),
    );
    expect(problem(() => createSandbox({ keys: [] }))).toBe(
      `createSandbox({ keys }) is not a valid key table: it must list at least one key, such as ${EXAMPLE}; received an empty array.`,
    );
  });

  it('text that is not JSON: the parser’s own words, and an example', () => {
    let parserWords = '';
    try {
      JSON.parse('[{"key":');
    } catch (error) {
      parserWords = (error as Error).message;
    }
    expect(parserWords).not.toBe('');
    expect(eachWay('[{"key":')).toEqual(named(`is not valid JSON (${parserWords}); give an array of keys such as ${EXAMPLE}`));
  });

  it('an entry that is not an object', () => {
    expect(eachWay('["svc_test_x"]')).toEqual(
      named('is not a valid key table: entry [0] must be an object with key, account and scopes; received "svc_test_x".'),
    );
    expect(problem(() => readConfig({ SANDBOX_KEYS: `[${EXAMPLE.slice(1, -1)},null]` }))).toBe(
      'SANDBOX_KEYS is not a valid key table: entry [1] must be an object with key, account and scopes; received null.',
    );
  });
});

describe("an entry's fields", () => {
  const entry = (fields: Record<string, unknown>) => JSON.stringify([{ key: 'svc_test_x', account: 'A', scopes: '*', ...fields }]);

  it('a key that is not a svc_test_ key is never repeated: it may be a real one', () => {
    const live = 'svc_live_0123456789abcdef';
    const words = eachWay(entry({ key: live }));
    expect(words).toEqual(
      named(
        'is not a valid key table: entry [0]: key must begin with svc_test_, then 1 to 200 letters, digits or underscores; received a string of 25 characters that does not (not shown: it may be a real key).',
      ),
    );
    expect(JSON.stringify(words)).not.toContain(live);
    expect(problem(() => readConfig({ SANDBOX_KEYS: entry({ key: `svc_test_${'a'.repeat(201)}` }) }))).toBe(
      'SANDBOX_KEYS is not a valid key table: entry [0]: key must begin with svc_test_, then 1 to 200 letters, digits or underscores; received a string of 210 characters that does not (not shown: it may be a real key).',
    );
    // It must begin with svc_test_: one that holds it further on is refused, not shown either.
    expect(problem(() => readConfig({ SANDBOX_KEYS: entry({ key: 'my_svc_test_x' }) }))).toBe(
      'SANDBOX_KEYS is not a valid key table: entry [0]: key must begin with svc_test_, then 1 to 200 letters, digits or underscores; received a string of 13 characters that does not (not shown: it may be a real key).',
    );
    expect(problem(() => readConfig({ SANDBOX_KEYS: entry({ key: 5 }) }))).toBe(
      'SANDBOX_KEYS is not a valid key table: entry [0]: key must be a string; received 5.',
    );
  });

  it('a key of 200 characters after svc_test_ is taken, and authenticates', async () => {
    const key = `svc_test_${'a'.repeat(200)}`;
    const sandbox = createSandbox({ keys: [{ key, account: 'A', scopes: '*' }] });
    expect((await get(sandbox, '/v1/jobs?limit=1', key)).status).toBe(200);
  });

  it('an account other than A or B, with the one it was probably meant to be', () => {
    expect(eachWay(entry({ account: 'a' }))).toEqual(
      named(
        'is not a valid key table: entry [0]: account must be "A" or "B" (sample account A, or the smaller B); received "a". Did you mean "A"?',
      ),
    );
    expect(problem(() => readConfig({ SANDBOX_KEYS: entry({ account: 'C' }) }))).toBe(
      'SANDBOX_KEYS is not a valid key table: entry [0]: account must be "A" or "B" (sample account A, or the smaller B); received "C".',
    );
  });

  it('scopes: "*" or an array, and one scope alone is told to go in an array', () => {
    const notAList = (received: string) =>
      `SANDBOX_KEYS is not a valid key table: entry [0]: scopes must be "*" (every scope) or an array of scopes, each one of the 16 scopes: ${SIXTEEN_SCOPES}; received ${received}`;
    expect(problem(() => readConfig({ SANDBOX_KEYS: entry({ scopes: 'jobs:read' }) }))).toBe(
      notAList('"jobs:read". Put it in an array: ["jobs:read"].'),
    );
    expect(problem(() => readConfig({ SANDBOX_KEYS: entry({ scopes: 'jobs:fly' }) }))).toBe(notAList('"jobs:fly".'));
    expect(problem(() => readConfig({ SANDBOX_KEYS: entry({ scopes: 5 }) }))).toBe(notAList('5.'));
    expect(problem(() => readConfig({ SANDBOX_KEYS: entry({ scopes: { 'jobs:read': true } }) }))).toBe(notAList('an object.'));
  });

  it('each scope of an array: one of the 16, with the one it was probably meant to be', () => {
    expect(eachWay(entry({ scopes: ['jobs:read', 'jobs:raed'] }))).toEqual(
      named(
        `is not a valid key table: entry [0]: scopes[1] must be one of the 16 scopes: ${SIXTEEN_SCOPES}; received "jobs:raed". Did you mean "jobs:read"?`,
      ),
    );
    expect(problem(() => readConfig({ SANDBOX_KEYS: entry({ scopes: ['jobs:read', 5] }) }))).toBe(
      `SANDBOX_KEYS is not a valid key table: entry [0]: scopes[1] must be one of the 16 scopes: ${SIXTEEN_SCOPES}; received 5.`,
    );
    expect(problem(() => createSandbox({ keys: [{ key: 'svc_test_x', account: 'A', scopes: ['jobs:read', 'jobs:wirte'] }] }))).toBe(
      `createSandbox({ keys }) is not a valid key table: entry [0]: scopes[1] must be one of the 16 scopes: ${SIXTEEN_SCOPES}; received "jobs:wirte". Did you mean "jobs:write"?`,
    );
  });

  it('revoked and shared: true or false', () => {
    expect(problem(() => readConfig({ SANDBOX_KEYS: entry({ revoked: 'yes' }) }))).toBe(
      'SANDBOX_KEYS is not a valid key table: entry [0]: revoked must be true or false; received "yes".',
    );
    expect(problem(() => readConfig({ SANDBOX_KEYS: entry({ shared: 1 }) }))).toBe(
      'SANDBOX_KEYS is not a valid key table: entry [0]: shared must be true (a key many people use: each address gets its own Idempotency-Keys) or false (the default: one holder); received 1.',
    );
  });

  it('a missing field names the three every key needs', () => {
    expect(eachWay('[{"key":"svc_test_x","scopes":"*"}]')).toEqual(
      named('is not a valid key table: entry [0]: account is missing; every key needs key, account and scopes.'),
    );
    expect(problem(() => createSandbox({ keys: [{ account: 'A', scopes: '*' } as SandboxKey] }))).toBe(
      'createSandbox({ keys }) is not a valid key table: entry [0]: key is missing; every key needs key, account and scopes.',
    );
  });

  it('an unknown field, with the field it was probably meant to be; said before any other problem of the entry', () => {
    expect(eachWay(entry({ revokd: true }))).toEqual(
      named(
        'is not a valid key table: entry [0]: unknown field revokd. Did you mean "revoked"? The fields are key, account, scopes, revoked and shared.',
      ),
    );
    expect(problem(() => readConfig({ SANDBOX_KEYS: entry({ account: 'C', colour: 'red' }) }))).toBe(
      'SANDBOX_KEYS is not a valid key table: entry [0]: unknown field colour. The fields are key, account, scopes, revoked and shared.',
    );
  });

  it('a key listed twice names both entries', () => {
    const table = JSON.stringify([
      { key: 'svc_test_x', account: 'A', scopes: '*' },
      { key: 'svc_test_y', account: 'A', scopes: '*' },
      { key: 'svc_test_x', account: 'B', scopes: ['jobs:read'] },
    ]);
    expect(eachWay(table)).toEqual(
      named('is not a valid key table: entry [2]: key is listed twice (as entry [0] too); list each key once.'),
    );
  });
});

type Sandbox = ReturnType<typeof createSandbox>;

function get(sandbox: Sandbox, path: string, key: string): Promise<Response> {
  return sandbox.fetch(new Request(`https://sandbox.test${path}`, { headers: { Authorization: `Bearer ${key}` } }));
}

async function firstJob(sandbox: Sandbox, key: string): Promise<string> {
  const answer = await get(sandbox, '/v1/jobs?limit=1', key);
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { data: { id: string }[] }).data[0]?.id as string;
}

describe('a table that can be used replaces the default one', () => {
  const TABLE = JSON.stringify([
    { key: 'svc_test_team_all', account: 'A', scopes: '*' },
    { key: 'svc_test_team_jobs', account: 'A', scopes: ['jobs:read', 'jobs:read'] },
    { key: 'svc_test_team_b', account: 'B', scopes: '*', shared: false },
    { key: 'svc_test_team_gone', account: 'A', scopes: '*', revoked: true },
  ]);

  it.each([
    ['SANDBOX_KEYS (a Worker’s [vars] alike)', () => readConfig({ SANDBOX_KEYS: `  ${TABLE}\n` }).keys],
    ['--keys', () => readText({ SANDBOX_KEYS: TABLE }, new Set(['SANDBOX_KEYS'])).keys],
  ])('read from %s: each entry with its account, scopes, revoked and shared', (_way, read) => {
    expect(
      read().map(({ key, account, scopes, revoked, shared }) => ({ key, account, scopes: [...scopes].length, revoked, shared })),
    ).toEqual([
      { key: 'svc_test_team_all', account: 'A', scopes: 16, revoked: false, shared: false },
      { key: 'svc_test_team_jobs', account: 'A', scopes: 1, revoked: false, shared: false },
      { key: 'svc_test_team_b', account: 'B', scopes: 16, revoked: false, shared: false },
      { key: 'svc_test_team_gone', account: 'A', scopes: 16, revoked: true, shared: false },
    ]);
  });

  it.each([
    ['as JSON text', TABLE],
    ['as entries', JSON.parse(TABLE) as SandboxKey[]],
  ])('createSandbox({ keys }) %s: who is authenticated, with which scopes, on which account', async (_way, keys) => {
    const sandbox = createSandbox({ keys });
    expect((await get(sandbox, '/v1/clients?limit=1', 'svc_test_team_all')).status).toBe(200);
    expect((await get(sandbox, '/v1/jobs?limit=1', 'svc_test_team_jobs')).status).toBe(200);
    expect((await get(sandbox, '/v1/clients?limit=1', 'svc_test_team_jobs')).status).toBe(403);
    expect((await get(sandbox, '/v1/jobs?limit=1', 'svc_test_team_gone')).status).toBe(401);
    expect((await get(sandbox, '/v1/jobs?limit=1', 'svc_test_sandbox_public')).status).toBe(401);
    expect(await firstJob(sandbox, 'svc_test_team_b')).not.toBe(await firstJob(sandbox, 'svc_test_team_all'));
  });
});
