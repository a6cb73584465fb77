// The other settings as each way in takes them (README, "Configuration"; SANDBOX.md,
// "Configuration"): the variables (the Node server's environment and a Worker's [vars], both read
// by readConfig), the CLI's flags (readText with the flags given) and createSandbox's options. A
// value that cannot be used is refused in words that name the way it came in and say what it must
// be and what was received; a value that can be used takes effect in the answers.
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../src/config.js';
import { readText, type Variable } from '../../src/config/sources.js';
import { createSandbox } from '../../src/index.js';
import { testApp } from '../helpers.js';
import { problem } from './problem.js';

const EVERY_FLAG = new Set<Variable>([
  'SANDBOX_SEED',
  'SANDBOX_RATE_LIMIT',
  'SANDBOX_KEYS',
  'SANDBOX_CLOCK',
  'SANDBOX_WEBHOOK_URL',
  'SANDBOX_WEBHOOK_SECRET',
  'SANDBOX_WEBHOOK_EVENTS',
  'SANDBOX_FAULTS',
]);
const KEY = 'svc_test_sandbox_public';
const JOB_BODY = JSON.stringify({ type: 'ci_pickup', client: 'cli_seII9pzPSgmmJJ', site: 'site_boDWBFERDT5aI9' });
const TIME_RULE = 'must be a UTC time in RFC 3339 with seconds, as the API writes them (such as 2026-03-02T17:00:00Z)';
const URL_RULE = 'must be an absolute http:// or https:// URL such as http://127.0.0.1:4242/webhooks';
const SECRET_RULE = 'must be a signing secret beginning with whsec_ (no spaces), such as the one your receiver uses';
const TYPES_RULE = 'must be one of the types writes emit: job.created, job.scheduled, container.received';
const FAULTS_RULE =
  'must be a comma list of fault=fraction (a delay as delay=fraction:ms), such as api_error=0.02,api_error_after_write=0.02,reset_after_write=0.01,delay=0.05:1500';
const RATE_RULE = 'must be a whole number of requests per second (1 or more) or "off"';

const flags = (sources: Parameters<typeof readText>[0]) => readText(sources, EVERY_FLAG);

type Sandbox = ReturnType<typeof createSandbox>;

function send(sandbox: Sandbox, path: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}) {
  return sandbox.fetch(
    new Request(`https://sandbox.test${path}`, {
      method: init.method ?? 'GET',
      headers: {
        Authorization: `Bearer ${KEY}`,
        ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...init.headers,
      },
      ...(init.body === undefined ? {} : { body: init.body }),
    }),
  );
}

describe('the seed', () => {
  it('defaults to the published one; an empty variable counts as not set, an empty flag or option is refused', () => {
    expect(readConfig({}).seed).toBe('waste-ops-sandbox-v1');
    expect(readConfig({ SANDBOX_SEED: ' ' }).seed).toBe('waste-ops-sandbox-v1');
    expect(createSandbox().seed).toBe('waste-ops-sandbox-v1');
    expect(problem(() => flags({ SANDBOX_SEED: '' }))).toBe(
      '--seed must not be empty: give a seed, or leave it out for the published one; received an empty string.',
    );
    expect(problem(() => flags({ SANDBOX_SEED: '  ' }))).toBe(
      '--seed must not be empty: give a seed, or leave it out for the published one; received "  ".',
    );
    expect(problem(() => createSandbox({ seed: 5 as never }))).toBe('createSandbox({ seed }) must be text; received 5.');
  });

  it('another seed, other IDs, from every way in', async () => {
    const published = await (await send(createSandbox(), '/v1/jobs?limit=1')).json();
    const fromOption = await (await send(createSandbox({ seed: 'ci-seed' }), '/v1/jobs?limit=1')).json();
    const fromVariable = await (
      await testApp({ SANDBOX_SEED: 'ci-seed' }).request('/v1/jobs?limit=1', { headers: { Authorization: `Bearer ${KEY}` } })
    ).json();
    expect(fromOption.data[0].id).not.toBe(published.data[0].id);
    expect(fromVariable.data[0].id).toBe(fromOption.data[0].id);
  });
});

describe('the rate limit', () => {
  it('defaults to 25 a second for the server, off in-process; RateLimit-Policy names the default when off', async () => {
    expect(readConfig({}).rateLimit).toBe(25);
    expect(readConfig({ SANDBOX_RATE_LIMIT: '' }).rateLimit).toBe(25);
    const app = testApp({ SANDBOX_RATE_LIMIT: '' });
    expect((await app.request('/health')).headers.get('RateLimit-Policy')).toBe('25;w=1');
    const sandbox = createSandbox();
    const statuses = new Set<number>();
    for (let i = 0; i < 40; i++) statuses.add((await send(sandbox, '/v1/jobs?limit=1')).status);
    expect(statuses).toEqual(new Set([200]));
    expect((await send(sandbox, '/v1/jobs?limit=1')).headers.get('RateLimit-Policy')).toBe('25;w=1');
  });

  it('reads a whole number from 1 to 999999, trimmed, or off in any case', () => {
    expect(readConfig({ SANDBOX_RATE_LIMIT: ' 12 ' }).rateLimit).toBe(12);
    expect(readConfig({ SANDBOX_RATE_LIMIT: '1' }).rateLimit).toBe(1);
    expect(readConfig({ SANDBOX_RATE_LIMIT: '999999' }).rateLimit).toBe(999999);
    expect(readConfig({ SANDBOX_RATE_LIMIT: ' Off ' }).rateLimit).toBeNull();
    expect(flags({ SANDBOX_RATE_LIMIT: 'OFF' }).rateLimit).toBeNull();
  });

  it.each([
    ['0', '0'],
    ['1000000', '"1000000"'],
    ['1.5', '"1.5"'],
    ['a12', '"a12"'],
    ['12a', '"12a"'],
    ['-3', '"-3"'],
  ])('refuses %s, showing it as read (a number when it is one)', (text, received) => {
    expect(problem(() => readConfig({ SANDBOX_RATE_LIMIT: text }))).toBe(`SANDBOX_RATE_LIMIT ${RATE_RULE}; received ${received}.`);
    expect(problem(() => flags({ SANDBOX_RATE_LIMIT: text }))).toBe(`--rate-limit ${RATE_RULE}; received ${received}.`);
  });

  it('createSandbox takes 1 to 999999 requests a second, as a number or its text, or off', async () => {
    expect(problem(() => createSandbox({ rateLimit: 1_000_000 }))).toBe(`createSandbox({ rateLimit }) ${RATE_RULE}; received 1000000.`);
    expect(problem(() => createSandbox({ rateLimit: 2.5 }))).toBe(`createSandbox({ rateLimit }) ${RATE_RULE}; received 2.5.`);
    expect(problem(() => createSandbox({ rateLimit: 'x5' as never }))).toBe(`createSandbox({ rateLimit }) ${RATE_RULE}; received "x5".`);
    const most = await send(createSandbox({ rateLimit: 999_999 }), '/v1/jobs?limit=1');
    expect(most.status).toBe(200);
    expect(most.headers.get('RateLimit-Policy')).toBe('999999;w=1');

    const fromText = createSandbox({ rateLimit: ' 3 ' as never });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await send(fromText, '/v1/jobs?limit=1')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await send(fromText, '/v1/jobs?limit=1')).headers.get('RateLimit-Policy')).toBe('3;w=1');

    const off = createSandbox({ rateLimit: 'OFF' as never });
    const offStatuses = new Set<number>();
    for (let i = 0; i < 30; i++) offStatuses.add((await send(off, '/v1/jobs?limit=1')).status);
    expect(offStatuses).toEqual(new Set([200]));
  });
});

describe('the pinned clock', () => {
  const created = async (sandbox: Sandbox) => {
    const answer = await send(sandbox, '/v1/webhook_endpoints', {
      method: 'POST',
      body: JSON.stringify({ url: 'https://example.com/hooks', events: ['*'] }),
    });
    expect(answer.status).toBe(201);
    return {
      requestId: answer.headers.get('Request-Id'),
      body: (await answer.json()) as { id: string; secret: string; created_at: string },
    };
  };

  it('a Date is read to the second: the same bytes as its time in text', async () => {
    const fromDate = await created(createSandbox({ clock: new Date('2026-03-02T17:00:00.789Z') }));
    const fromText = await created(createSandbox({ clock: '2026-03-02T17:00:00Z' }));
    expect(fromDate.body.created_at).toBe('2026-03-02T17:00:00Z');
    expect(fromDate).toEqual(fromText);
  });

  it('text is trimmed, from a variable and from the option', async () => {
    expect(readConfig({ SANDBOX_CLOCK: ' 2026-03-02T17:00:00Z\n' }).clock).toEqual(new Date('2026-03-02T17:00:00Z'));
    expect((await created(createSandbox({ clock: ' 2026-03-02T17:00:00Z ' }))).body.created_at).toBe('2026-03-02T17:00:00Z');
  });

  it('anything else is refused, showing what was given', () => {
    expect(problem(() => readConfig({ SANDBOX_CLOCK: '2026-03-02T17:00:00+01:00' }))).toBe(
      `SANDBOX_CLOCK ${TIME_RULE}; received "2026-03-02T17:00:00+01:00"`,
    );
    expect(problem(() => flags({ SANDBOX_CLOCK: '2026-03-02' }))).toBe(`--clock ${TIME_RULE}; received "2026-03-02"`);
    expect(problem(() => createSandbox({ clock: 'soon' }))).toBe(`createSandbox({ clock }) ${TIME_RULE}; received "soon"`);
    expect(problem(() => createSandbox({ clock: 5 as never }))).toBe(`createSandbox({ clock }) ${TIME_RULE}; received "5"`);
    expect(problem(() => createSandbox({ clock: new Date('not a time') }))).toBe(
      `createSandbox({ clock }) ${TIME_RULE}; received "Invalid Date"`,
    );
  });
});

describe('the webhook', () => {
  it('a URL alone: every event type, a secret made for it', () => {
    expect(readConfig({ SANDBOX_WEBHOOK_URL: 'http://127.0.0.1:4242/hooks' }).webhook).toEqual({
      url: 'http://127.0.0.1:4242/hooks',
      secret: undefined,
      events: '*',
    });
    const sandbox = createSandbox({ webhook: { url: 'https://receiver.test' } });
    expect(sandbox.webhook).toEqual({
      url: 'https://receiver.test/',
      secret: expect.stringMatching(/^whsec_[0-9A-Za-z]{32}$/),
      events: '*',
    });
  });

  it('the URL, secret and event types trimmed; types listed once; * for every type', () => {
    expect(
      readConfig({
        SANDBOX_WEBHOOK_URL: '\u00a0https://receiver.test/hooks ',
        SANDBOX_WEBHOOK_SECRET: ' whsec_abc ',
        SANDBOX_WEBHOOK_EVENTS: ' job.scheduled , job.created,job.scheduled ',
      }).webhook,
    ).toEqual({ url: 'https://receiver.test/hooks', secret: 'whsec_abc', events: ['job.scheduled', 'job.created'] });
    expect(flags({ SANDBOX_WEBHOOK_URL: 'http://127.0.0.1:4242', SANDBOX_WEBHOOK_EVENTS: ' * ' }).webhook).toEqual({
      url: 'http://127.0.0.1:4242/',
      secret: undefined,
      events: '*',
    });
    expect(
      createSandbox({
        webhook: { url: 'http://127.0.0.1:4242', secret: 'whsec_abc', events: ['container.received', 'container.received'] },
      }).webhook,
    ).toEqual({ url: 'http://127.0.0.1:4242/', secret: 'whsec_abc', events: ['container.received'] });
  });

  it.each([
    ['ftp://127.0.0.1/hooks', URL_RULE],
    ['/hooks', URL_RULE],
    ['http://user:pw@127.0.0.1/hooks', 'must not carry a user name or password (receivers check the signature instead)'],
    ['http://user@127.0.0.1/hooks', 'must not carry a user name or password (receivers check the signature instead)'],
    ['http://:pw@127.0.0.1/hooks', 'must not carry a user name or password (receivers check the signature instead)'],
  ])('refuses the URL %s', (url, rule) => {
    expect(problem(() => readConfig({ SANDBOX_WEBHOOK_URL: url }))).toBe(`SANDBOX_WEBHOOK_URL ${rule}; received "${url}".`);
    expect(problem(() => flags({ SANDBOX_WEBHOOK_URL: url }))).toBe(`--webhook-url ${rule}; received "${url}".`);
    expect(problem(() => createSandbox({ webhook: { url } }))).toBe(`createSandbox({ webhook: { url } }) ${rule}; received "${url}".`);
  });

  it('refuses a secret that is not a whsec_ one', () => {
    const url = 'http://127.0.0.1:4242/hooks';
    expect(problem(() => readConfig({ SANDBOX_WEBHOOK_URL: url, SANDBOX_WEBHOOK_SECRET: 'abc' }))).toBe(
      `SANDBOX_WEBHOOK_SECRET ${SECRET_RULE}; received "abc".`,
    );
    expect(problem(() => flags({ SANDBOX_WEBHOOK_URL: url, SANDBOX_WEBHOOK_SECRET: 'whsec_a b' }))).toBe(
      `--webhook-secret ${SECRET_RULE}; received "whsec_a b".`,
    );
    expect(problem(() => createSandbox({ webhook: { url, secret: 'x' } }))).toBe(
      `createSandbox({ webhook: { secret } }) ${SECRET_RULE}; received "x".`,
    );
    // whsec_ begins it: a secret of another form that holds whsec_ further on is not one.
    expect(problem(() => createSandbox({ webhook: { url, secret: 'my_whsec_abc' } }))).toBe(
      `createSandbox({ webhook: { secret } }) ${SECRET_RULE}; received "my_whsec_abc".`,
    );
  });

  it('refuses a URL or a secret that is not text (createSandbox from JavaScript) with the same rule', () => {
    expect(problem(() => createSandbox({ webhook: { url: 42 as never } }))).toBe(
      `createSandbox({ webhook: { url } }) ${URL_RULE}; received 42.`,
    );
    expect(problem(() => createSandbox({ webhook: { url: 'http://127.0.0.1:4242/hooks', secret: true as never } }))).toBe(
      `createSandbox({ webhook: { secret } }) ${SECRET_RULE}; received true.`,
    );
  });

  it('refuses an event type writes do not emit, with the one it was probably meant to be', () => {
    const url = 'http://127.0.0.1:4242/hooks';
    expect(problem(() => readConfig({ SANDBOX_WEBHOOK_URL: url, SANDBOX_WEBHOOK_EVENTS: 'job.created,job.schedueld' }))).toBe(
      `SANDBOX_WEBHOOK_EVENTS ${TYPES_RULE}; received "job.schedueld". Did you mean "job.scheduled"?`,
    );
    expect(problem(() => flags({ SANDBOX_WEBHOOK_URL: url, SANDBOX_WEBHOOK_EVENTS: 'invoice.paid' }))).toBe(
      `--webhook-events ${TYPES_RULE}; received "invoice.paid".`,
    );
    expect(problem(() => readConfig({ SANDBOX_WEBHOOK_URL: url, SANDBOX_WEBHOOK_EVENTS: ' , ' }))).toBe(
      `SANDBOX_WEBHOOK_EVENTS ${TYPES_RULE}; received an empty string.`,
    );
    expect(problem(() => createSandbox({ webhook: { url, events: ['job.created', 'job.craeted' as never] } }))).toBe(
      `createSandbox({ webhook: { events } })[1] ${TYPES_RULE}; received "job.craeted". Did you mean "job.created"?`,
    );
  });

  it("createSandbox's events: a list of at least one type, or '*'", () => {
    const url = 'http://127.0.0.1:4242/hooks';
    expect(problem(() => createSandbox({ webhook: { url, events: [] } }))).toBe(
      "createSandbox({ webhook: { events } }) must list at least one event type, or be '*' (the default); received an empty array.",
    );
    expect(problem(() => createSandbox({ webhook: { url, events: 'job.created' as never } }))).toBe(
      'createSandbox({ webhook: { events } }) must be \'*\' (the default) or a list of the types writes emit: job.created, job.scheduled, container.received; received "job.created".',
    );
    expect(problem(() => createSandbox({ webhook: { url, events: 5 as never } }))).toBe(
      "createSandbox({ webhook: { events } }) must be '*' (the default) or a list of the types writes emit: job.created, job.scheduled, container.received; received 5.",
    );
  });

  it("createSandbox's webhook: an object with a url, and only url, secret and events", () => {
    expect(problem(() => createSandbox({ webhook: { secret: 'whsec_abc' } as never }))).toBe(
      'createSandbox({ webhook: { url } }) is missing.',
    );
    expect(problem(() => createSandbox({ webhook: 'http://127.0.0.1:4242/hooks' as never }))).toBe(
      'createSandbox({ webhook }) must be an object; received "http://127.0.0.1:4242/hooks".',
    );
    expect(problem(() => createSandbox({ webhook: { url: 'http://127.0.0.1:4242/hooks', secert: 'whsec_abc' } as never }))).toBe(
      'createSandbox({ webhook }): unknown field secert. Did you mean "secret"? It takes url, secret, events.',
    );
    // An unknown field first, whatever else is wrong: its fix changes what else there is to say.
    expect(problem(() => createSandbox({ seed: '', webhook: { url: 'ftp://x', evnets: '*' } as never }))).toBe(
      'createSandbox({ webhook }): unknown field evnets. Did you mean "events"? It takes url, secret, events.',
    );
    expect(problem(() => createSandbox({ webhook: { url: 'ftp://x', colour: 'red' } as never }))).toBe(
      'createSandbox({ webhook }): unknown field colour. It takes url, secret, events.',
    );
  });

  it('a secret or a list of types without a URL is refused, naming both as they came', () => {
    const missing = (given: string, url: string) => `${given} is set but ${url} is not: set the URL the events of writes go to`;
    expect(problem(() => readConfig({ SANDBOX_WEBHOOK_SECRET: 'whsec_abc' }))).toBe(
      missing('SANDBOX_WEBHOOK_SECRET', 'SANDBOX_WEBHOOK_URL'),
    );
    expect(problem(() => readConfig({ SANDBOX_WEBHOOK_EVENTS: '*' }))).toBe(missing('SANDBOX_WEBHOOK_EVENTS', 'SANDBOX_WEBHOOK_URL'));
    expect(problem(() => readConfig({ SANDBOX_WEBHOOK_URL: ' ', SANDBOX_WEBHOOK_SECRET: 'whsec_abc', SANDBOX_WEBHOOK_EVENTS: '*' }))).toBe(
      missing('SANDBOX_WEBHOOK_SECRET', 'SANDBOX_WEBHOOK_URL'),
    );
    expect(problem(() => readText({ SANDBOX_WEBHOOK_SECRET: 'whsec_abc' }, new Set(['SANDBOX_WEBHOOK_SECRET'])))).toBe(
      missing('--webhook-secret', '--webhook-url'),
    );
    expect(problem(() => readText({ SANDBOX_WEBHOOK_EVENTS: 'job.created' }, new Set(['SANDBOX_WEBHOOK_EVENTS'])))).toBe(
      missing('--webhook-events', '--webhook-url'),
    );
  });
});

describe('random faults', () => {
  it('reads the list, trimmed, in the order given', () => {
    expect(readConfig({ SANDBOX_FAULTS: ' api_error = 0.02 , delay=0.05:1500,reset_after_write=.01' }).faults).toEqual([
      { fault: 'api_error', fraction: 0.02 },
      { fault: 'delay', fraction: 0.05, delayMs: 1500 },
      { fault: 'reset_after_write', fraction: 0.01 },
    ]);
    expect(readConfig({ SANDBOX_FAULTS: '' }).faults).toBeNull();
    expect(readConfig({}).faults).toBeNull();
  });

  it('refuses a list it cannot use, saying why, without repeating the list', () => {
    expect(problem(() => readConfig({ SANDBOX_FAULTS: 'api_error=0.6,delay=0.6:10' }))).toBe(
      `SANDBOX_FAULTS ${FAULTS_RULE}; the fractions add up to 1.2, more than 1.`,
    );
    expect(problem(() => flags({ SANDBOX_FAULTS: 'delay=0.1' }))).toBe(
      `--faults ${FAULTS_RULE}; delay takes its milliseconds after the fraction (delay=0.05:1500), 0 to 60000; received "0.1".`,
    );
    expect(problem(() => createSandbox({ faults: 'api_eror=0.1' }))).toBe(
      `createSandbox({ faults }) ${FAULTS_RULE}; "api_eror" is not one of rate_limited, api_error, api_error_after_write, reset_after_write, duplicate_event or delay. Did you mean "api_error"?`,
    );
    expect(problem(() => createSandbox({ faults: 5 as never }))).toBe(
      'createSandbox({ faults }) must be text such as api_error=0.02,delay=0.05:1500; received 5.',
    );
  });

  it('a random delay says so on every answer it holds, an error and a read included (Sandbox-Fault)', async () => {
    const sandbox = createSandbox({ faults: 'delay=1:0' });
    const missing = await send(sandbox, '/v1/jobs/job_0000000000000000');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('Sandbox-Fault')).toBe('delay=0');
    const read = await send(sandbox, '/v1/jobs?limit=1');
    expect(read.status).toBe(200);
    expect(read.headers.get('Sandbox-Fault')).toBe('delay=0');
    const write = await send(sandbox, '/v1/jobs', { method: 'POST', body: JOB_BODY });
    expect(write.status).toBe(201);
    expect(write.headers.get('Sandbox-Fault')).toBe('delay=0');
  });

  it('a random api_error names SANDBOX_FAULTS as its source', async () => {
    const answer = await send(createSandbox({ faults: 'api_error=1' }), '/v1/jobs?limit=1');
    expect(answer.status).toBe(500);
    expect(answer.headers.get('Sandbox-Fault')).toBe('api_error');
    expect(((await answer.json()) as { error: { message: string } }).error.message).toBe(
      'Simulated failure (a random fault of this sandbox, SANDBOX_FAULTS): nothing ran. Safe to retry.',
    );
  });
});

describe("createSandbox's options", () => {
  it('an unknown one is refused with the one it was probably meant to be, and the list', () => {
    expect(problem(() => createSandbox({ clientAdress: '203.0.113.7' } as never))).toBe(
      'createSandbox: unknown option clientAdress. Did you mean "clientAddress"? The options are seed, rateLimit, keys, clock, webhook, faults, now, onEvent, clientAddress.',
    );
  });

  it('an option given as undefined is left out', () => {
    const sandbox = createSandbox({
      seed: undefined,
      keys: undefined,
      clock: undefined,
      webhook: undefined,
      faults: undefined,
      rateLimit: undefined,
    });
    expect(sandbox.seed).toBe('waste-ops-sandbox-v1');
    expect(sandbox.webhook).toBeUndefined();
  });
});
