// The pinned clock (issue #16; docs/snapshot-tests.md), through HTTP in-process, where
// `npm run mutate` runs it too; on the built server in test/pinned-clock-server.test.ts, and on
// workerd in test/worker-parity.test.ts and test/workers/pinned-clock.test.ts.
import { describe, expect, it } from 'vitest';
import { PinnedMint } from '../src/clock/mint.js';
import { createSandbox, type SandboxEvent } from '../src/index.js';
import { OTHER_KEY, PUBLIC_KEY, call, testApp } from './helpers.js';
import { PINNED_TIME, SCRIPT, type ScriptAnswer, requestOf, runScript } from './pinned-clock/script.js';

const GOLDEN = './pinned-clock/script.golden.json';
const golden = (answers: ScriptAnswer[]) => `${JSON.stringify(answers, null, 2)}\n`;
const idOf = (answer: ScriptAnswer | undefined) => (JSON.parse(answer?.text ?? '{}') as { id?: string }).id;

describe('with Sandbox-Clock, the same script gets the same bytes', () => {
  it('on two fresh in-process sandboxes, and as the stored snapshot', async () => {
    const [one, two] = [createSandbox(), createSandbox()];
    const first = await runScript((request) => one.fetch(request));
    const second = await runScript((request) => two.fetch(request));
    expect(second).toEqual(first);
    await expect(golden(first)).toMatchFileSnapshot(GOLDEN);
    // Every step of the script answered what it is there to show.
    expect(first.map((answer) => answer.status)).toEqual([
      201, 201, 201, 201, 201, 201, 201, 200, 200, 200, 200, 200, 200, 200, 400, 404, 422, 401, 500, 201, 500, 201, 201,
    ]);
    for (const answer of first) {
      expect(answer.requestId, answer.name).toMatch(/^req_[0-9A-Za-z]{24}$/);
      if (answer.status >= 400) expect(JSON.parse(answer.text).error.request_id, answer.name).toBe(answer.requestId);
      if (answer.status < 300 && answer.name.startsWith('create'))
        expect(JSON.parse(answer.text).created_at, answer.name).toBe(PINNED_TIME);
    }
    const replay = first.at(-1);
    expect(replay?.headers['idempotent-replayed']).toBe('true');
    expect(replay?.text).toBe(first.at(-2)?.text);
  });

  it('without it, the same script gets other IDs, secrets and request IDs', async () => {
    const [one, two] = [createSandbox(), createSandbox()];
    const first = await runScript((request) => one.fetch(request), undefined, false);
    const second = await runScript((request) => two.fetch(request), undefined, false);
    for (const [index, answer] of first.entries()) {
      expect(second[index]?.requestId, answer.name).not.toBe(answer.requestId);
      if (answer.name.startsWith('create')) expect(idOf(second[index]), answer.name).not.toBe(idOf(answer));
    }
    const secret = (answers: ScriptAnswer[]) => JSON.parse(answers[5]?.text ?? '{}').secret as string;
    expect(secret(second)).not.toBe(secret(first));
  });
});

describe('what the derivation reads', () => {
  const app = testApp();
  const body = { url: 'https://example.com/hooks', events: ['job.created'] };
  const create = async (options: { body?: unknown; key?: string; clock?: string; idempotencyKey?: string }) => {
    const headers: Record<string, string> = { 'Sandbox-Clock': options.clock ?? PINNED_TIME };
    if (options.idempotencyKey !== undefined) headers['Idempotency-Key'] = options.idempotencyKey;
    const result = await call(app, '/v1/webhook_endpoints', {
      method: 'POST',
      body: options.body ?? body,
      key: options.key ?? PUBLIC_KEY,
      headers,
    });
    expect(result.status, result.text).toBe(201);
    return { id: result.json.id as string, secret: result.json.secret as string, requestId: result.headers.get('Request-Id') };
  };

  it('the same inputs give the same ID, secret and request ID; key order in the body does not count', async () => {
    const first = await create({});
    expect(await create({})).toEqual(first);
    expect(await create({ body: { events: ['job.created'], url: 'https://example.com/hooks' } })).toEqual(first);
    expect(first.id).toMatch(/^we_[0-9A-Za-z]{14}$/);
    expect(first.secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
  });

  it.each([
    ['another body', { body: { ...body, events: ['job.scheduled'] } }],
    ['another Idempotency-Key', { idempotencyKey: 'another-key' }],
    ['another time', { clock: '2026-03-02T17:00:01Z' }],
    ['another account', { key: OTHER_KEY }],
  ])('%s gives another ID, secret and request ID', async (_name, change) => {
    const base = await create({});
    const changed = await create(change);
    expect(changed.id).not.toBe(base.id);
    expect(changed.secret).not.toBe(base.secret);
    expect(changed.requestId).not.toBe(base.requestId);
  });

  it('two keys of one account derive alike: the account counts, not the key', async () => {
    const viaJobsKey = await call(app, '/v1/jobs/job_doesnotexist0000', {
      key: 'svc_test_sandbox_jobs',
      headers: { 'Sandbox-Clock': PINNED_TIME },
    });
    const viaPublicKey = await call(app, '/v1/jobs/job_doesnotexist0000', { headers: { 'Sandbox-Clock': PINNED_TIME } });
    expect(viaJobsKey.text).toBe(viaPublicKey.text);
  });

  it('the answer time is the pinned time; the values of one answer differ from each other', async () => {
    const events: SandboxEvent[] = [];
    const sandbox = createSandbox({ onEvent: (event) => events.push(event) });
    const response = await sandbox.fetch(
      new Request('http://sandbox.test/v1/jobs', {
        method: 'POST',
        headers: { Authorization: `Bearer ${PUBLIC_KEY}`, 'Content-Type': 'application/json', 'Sandbox-Clock': '2030-01-31T23:59:59Z' },
        body: JSON.stringify({ type: 'ci_pickup', client: 'cli_seII9pzPSgmmJJ', site: 'site_boDWBFERDT5aI9' }),
      }),
    );
    const job = (await response.json()) as { id: string };
    expect(job).toMatchObject({ created_at: '2030-01-31T23:59:59Z', updated_at: '2030-01-31T23:59:59Z', status: 'draft' });
    expect(events).toMatchObject([{ created_at: '2030-01-31T23:59:59Z', data: { object: { id: job.id } } }]);
    const [jobBody, requestBody, eventBody] = [job.id, response.headers.get('Request-Id'), events[0]?.id].map((id) => id?.split('_')[1]);
    expect(new Set([jobBody, requestBody?.slice(0, 14), eventBody]).size).toBe(3);
    // No endpoint makes two records of one type yet; the mint numbers them, so each gets its own.
    const mint = new PinnedMint('seed', new Date('2030-01-31T23:59:59Z'), () => ({
      account: 'A',
      method: 'POST',
      target: '/v1/jobs',
      body: null,
      idempotencyKey: null,
    }));
    expect(mint.id('container')).not.toBe(mint.id('container'));
  });

  it('an idempotent replay under another pinned time returns the first answer', async () => {
    const headers = { 'Idempotency-Key': `replay-${crypto.randomUUID()}` };
    const first = await call(app, '/v1/clients', {
      method: 'POST',
      body: { name: 'A', kind: 'laboratory' },
      headers: { ...headers, 'Sandbox-Clock': PINNED_TIME },
    });
    const replay = await call(app, '/v1/clients', {
      method: 'POST',
      body: { name: 'A', kind: 'laboratory' },
      headers: { ...headers, 'Sandbox-Clock': '2031-01-01T00:00:00Z' },
    });
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(replay.text).toBe(first.text);
  });

  it('the header wins over the configured clock', async () => {
    const sandbox = createSandbox({ clock: '2020-01-01T00:00:00Z' });
    const request = requestOf('http://sandbox.test', SCRIPT[0] as (typeof SCRIPT)[number]);
    const answer = (await (await sandbox.fetch(request)).json()) as { created_at: string };
    expect(answer.created_at).toBe(PINNED_TIME);
  });
});

describe('a clock that cannot be read', () => {
  const app = testApp();

  it.each([
    '2026-03-02',
    '2026-03-02T17:00:00',
    '2026-03-02T17:00:00.000Z',
    '2026-03-02T17:00:00+00:00',
    '2026-02-30T17:00:00Z',
    'now',
    '',
  ])('Sandbox-Clock: %j is a 400 parameter_invalid naming the header, its format and an example', async (value) => {
    const result = await call(app, '/v1/jobs?limit=1', { headers: { 'Sandbox-Clock': value } });
    expect(result.status, result.text).toBe(400);
    expect(result.json.error).toMatchObject({ code: 'parameter_invalid', param: 'Sandbox-Clock' });
    expect(result.json.error.message).toContain('RFC 3339');
    expect(result.json.error.message).toContain('2026-03-02T17:00:00Z');
  });

  it('a long value is quoted in the message only up to its 60th character', async () => {
    const value = `2026-03-02T17:00:00Z${'9'.repeat(100)}`;
    const result = await call(app, '/v1/jobs?limit=1', { headers: { 'Sandbox-Clock': value } });
    expect(result.status, result.text).toBe(400);
    expect(result.json.error.message).toContain(`received "${value.slice(0, 60)}…"`);
    const sixty = value.slice(0, 60);
    const whole = await call(app, '/v1/jobs?limit=1', { headers: { 'Sandbox-Clock': sixty } });
    expect(whole.json.error.message).toContain(`received "${sixty}".`);
  });

  it('is checked after the key (401 first) and before Sandbox-Simulate', async () => {
    expect((await call(app, '/v1/jobs', { key: null, headers: { 'Sandbox-Clock': 'now' } })).status).toBe(401);
    const both = await call(app, '/v1/jobs', { headers: { 'Sandbox-Clock': 'now', 'Sandbox-Simulate': 'api_error' } });
    expect(both.json.error.param).toBe('Sandbox-Clock');
  });

  it('createSandbox({ clock }) throws a TypeError naming the option', () => {
    expect(() => createSandbox({ clock: 'soon' })).toThrow(/createSandbox\(\{ clock \}\) must be a UTC time/);
    expect(() => createSandbox({ clock: new Date(Number.NaN) })).toThrow(TypeError);
  });
});

describe('where integrators find it', () => {
  const app = testApp();

  it('browsers may send it: the preflight allows Sandbox-Clock', async () => {
    const preflight = await app.request('/v1/jobs', {
      method: 'OPTIONS',
      headers: { Origin: 'https://docs.example', 'Access-Control-Request-Headers': 'sandbox-clock' },
    });
    expect(preflight.headers.get('Access-Control-Allow-Headers')).toContain('Sandbox-Clock');
  });

  it('/openapi.json lists Sandbox-Clock on every operation, next to Sandbox-Simulate', async () => {
    const document = (await (await app.request('/openapi.json')).json()) as {
      paths: Record<string, Record<string, { parameters?: { $ref?: string }[] }>>;
      components: { parameters: Record<string, { in: string; example: string }> };
    };
    const operations = Object.values(document.paths).flatMap((path) => Object.values(path));
    expect(operations.length).toBeGreaterThan(20);
    for (const operation of operations) {
      const refs = (operation.parameters ?? []).map((parameter) => parameter.$ref);
      expect(refs.indexOf('#/components/parameters/Sandbox-Clock')).toBe(refs.indexOf('#/components/parameters/Sandbox-Simulate') + 1);
    }
    // Its value is shown in the description, never as an example that /docs would send (issue #25).
    const clock = document.components.parameters['Sandbox-Clock'] as { in: string; example?: string; description: string };
    expect(clock).toMatchObject({ in: 'header' });
    expect(clock.example).toBeUndefined();
    expect(clock.description).toContain(PINNED_TIME);
  });

  it('/docs/errors#parameter_invalid mentions it', async () => {
    const page = await (await app.request('/docs/errors')).text();
    const section = page.slice(page.indexOf('id="parameter_invalid"'), page.indexOf('id="api_key_missing"'));
    expect(section).toContain('Sandbox-Clock');
  });
});
