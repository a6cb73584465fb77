// Issue #25: with a key table of its own, the sandbox suggests a key of that table wherever it
// suggests one, and following the advice works; with no usable key it says there is none; never
// the default table's key. The pages (/docs, /docs/errors, /openapi.json) name the table's
// working key, and the document's examples are its account's records (account A's without one);
// a 401, an answer to an unknown caller, names only a published key and otherwise points to
// /docs (a custom table's keys may be a team's own: test/security.test.ts).
import { describe, expect, it } from 'vitest';
import { createSandbox, type SandboxKey } from '../src/index.js';

const TEAM_TABLE: SandboxKey[] = [
  { key: 'svc_test_team_revoked', account: 'A', scopes: '*', revoked: true },
  { key: 'svc_test_team_jobs', account: 'A', scopes: ['jobs:read', 'jobs:write'] },
  { key: 'svc_test_team_ci', account: 'A', scopes: '*' },
];
const DEAD_TABLE: SandboxKey[] = [{ key: 'svc_test_team_gone', account: 'A', scopes: '*', revoked: true }];
const NO_KEY = /no key of this sandbox's key table can be used/i;

async function get(keys: SandboxKey[] | undefined, path: string, authorization?: string): Promise<{ status: number; text: string }> {
  const sandbox = createSandbox(keys === undefined ? {} : { keys });
  const response = await sandbox.fetch(
    new Request(`https://sandbox.test${path}`, authorization === undefined ? {} : { headers: { Authorization: authorization } }),
  );
  return { status: response.status, text: await response.text() };
}

function messageOf(text: string): string {
  return (JSON.parse(text) as { error: { message: string } }).error.message;
}

describe('a custom key table', () => {
  it.each([
    ['no Authorization header', undefined, 'api_key_missing'],
    ['a live key', 'Bearer svc_live_0123456789abcdef', 'api_key_invalid'],
  ])(
    'the 401 for %s points to /docs, never naming a key of the table or the default one; the key /docs gives works',
    async (_case, authorization, code) => {
      const answer = await get(TEAM_TABLE, '/v1/jobs?limit=1', authorization);
      expect(answer.status).toBe(401);
      expect(answer.text).toContain(`"code":"${code}"`);
      const message = messageOf(answer.text);
      // A custom table's keys may be a team's own: an answer to an unknown caller never repeats one.
      expect(message).toContain("this sandbox's reference page, /docs, shows a key that works");
      expect(message).not.toMatch(/svc_test_\w/);
      const shown = (await get(TEAM_TABLE, '/docs/init.js')).text.match(/preauthorizeApiKey\('bearer', "(svc_test_\w+)"\)/)?.[1];
      expect(shown).toBe('svc_test_team_ci');
      expect((await get(TEAM_TABLE, '/v1/jobs?limit=1', `Bearer ${shown}`)).status).toBe(200);
    },
  );

  it('/docs/errors, /docs and /openapi.json suggest the working key of the table, never the default one', async () => {
    const errors = await get(TEAM_TABLE, '/docs/errors');
    expect(errors.status).toBe(200);
    expect(errors.text).toContain('Send <code>Authorization: Bearer svc_test_team_ci</code>');
    expect(errors.text).toContain('such as <code>svc_test_team_ci</code>');
    expect(errors.text).toContain('<code>svc_test_team_ci</code> has all 16');
    for (const path of ['/docs/errors', '/docs', '/docs/init.js', '/openapi.json']) {
      const page = await get(TEAM_TABLE, path);
      expect(page.status, path).toBe(200);
      expect(page.text, path).not.toContain('svc_test_sandbox_');
    }
    expect((await get(TEAM_TABLE, '/docs/init.js')).text).toContain('"svc_test_team_ci"');
  });

  it('a table whose best key has some scopes names them where a scope is missing', async () => {
    const errors = await get([{ key: 'svc_test_team_jobs', account: 'A', scopes: ['jobs:read', 'jobs:write'] }], '/docs/errors');
    expect(errors.text).toContain(
      "<code>svc_test_team_jobs</code> has the most of this sandbox's keys: <code>jobs:read</code>, <code>jobs:write</code>",
    );
  });
});

describe('a key table with no usable key', () => {
  it('the 401s say there is none instead of naming a key', async () => {
    for (const authorization of [undefined, 'Bearer svc_live_0123456789abcdef']) {
      const answer = await get(DEAD_TABLE, '/v1/jobs', authorization);
      expect(answer.status).toBe(401);
      expect(messageOf(answer.text)).toMatch(NO_KEY);
      expect(answer.text).not.toMatch(/svc_test_\w/);
    }
  });

  it('/docs/errors says there is none', async () => {
    const errors = await get(DEAD_TABLE, '/docs/errors');
    expect(errors.text).toMatch(NO_KEY);
    expect(errors.text).not.toMatch(/svc_test_\w/);
  });
});

describe('the default key table', () => {
  it('names its published key svc_test_sandbox_public, which works', async () => {
    expect(messageOf((await get(undefined, '/v1/jobs')).text)).toContain("this sandbox's key svc_test_sandbox_public works");
    expect(messageOf((await get(undefined, '/v1/jobs', 'Bearer svc_live_0123456789abcdef')).text)).toContain(
      'use a svc_test_ key of this sandbox, such as svc_test_sandbox_public',
    );
    expect((await get(undefined, '/v1/jobs?limit=1', 'Bearer svc_test_sandbox_public')).status).toBe(200);
    expect((await get(undefined, '/docs/errors')).text).toContain('Send <code>Authorization: Bearer svc_test_sandbox_public</code>');
  });
});

describe("the document's examples", () => {
  /** The first job of the account a key reads, and /openapi.json of a sandbox with that table. */
  async function firstJobAndDocument(keys: SandboxKey[], reader: SandboxKey): Promise<{ job: string; document: string }> {
    const reading = createSandbox({ keys: [reader] });
    const list = await reading.fetch(
      new Request('https://sandbox.test/v1/jobs?limit=1', { headers: { Authorization: `Bearer ${reader.key}` } }),
    );
    expect(list.status).toBe(200);
    const job = ((await list.json()) as { data: { id: string }[] }).data[0]?.id as string;
    const document = await get(keys, '/openapi.json');
    expect(document.status).toBe(200);
    return { job, document: document.text };
  }

  it("are the records of the working key's account: B's when the table's one working key is B's", async () => {
    const bOnly: SandboxKey[] = [
      { key: 'svc_test_team_a_gone', account: 'A', scopes: '*', revoked: true },
      { key: 'svc_test_team_b', account: 'B', scopes: '*' },
    ];
    const b = await firstJobAndDocument(bOnly, { key: 'svc_test_team_b', account: 'B', scopes: '*' });
    const a = await firstJobAndDocument(bOnly, { key: 'svc_test_team_a', account: 'A', scopes: '*' });
    expect(a.job).not.toBe(b.job);
    expect(b.document).toContain(`"${b.job}"`);
    expect(b.document).not.toContain(`"${a.job}"`);
  });

  it("are account A's when no key of the table works", async () => {
    const a = await firstJobAndDocument(DEAD_TABLE, { key: 'svc_test_team_a', account: 'A', scopes: '*' });
    const b = await firstJobAndDocument(DEAD_TABLE, { key: 'svc_test_team_b', account: 'B', scopes: '*' });
    expect(a.document).toContain(`"${a.job}"`);
    expect(a.document).not.toContain(`"${b.job}"`);
  });
});
