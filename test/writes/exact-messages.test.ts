// The exact words, param and events of write answers whose other tests only match a fragment:
// a job's window and its site reference, a container at its last status and the one move that
// emits container.received, a profile's waste codes, a webhook endpoint's events and URL, a
// manifest whose job names records the account lacks; and a list page served from the page cache
// (docs/behaviour.md, "Memory"). Each test builds its own app inside itself, so that the code it
// holds runs in it (a module-level app is credited to whichever test ran first; docs/operations.md,
// "Mutation testing"). Expected texts are written out here from docs/ and test/reference/, never
// taken from src/.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SampleData } from '../../src/data/dataset.js';
import { generateSampleData } from '../../src/data/generate/index.js';
import { SampleStore } from '../../src/data/store.js';
import { listPageCache } from '../../src/resources/endpoints.js';
import type { EventSink, WriteEvent } from '../../src/webhooks/write-events.js';
import { testApp } from '../helpers.js';
import {
  type CallResult,
  expectError,
  expectStatus,
  findSample,
  invalid,
  notFound,
  send,
  stateInvalid,
  unknownId,
  writesApp,
} from './helpers.js';

/** A facility of fixtures/facilities.json, as docs/sample-data.md's curl sends it. */
const FACILITY = 'WAD062459682';

/** The error's message, exactly. */
function expectMessage(result: CallResult, message: string): void {
  expect(result.json.error.message).toBe(message);
}

/** An app whose event sink keeps what the writes emit. */
function appWithEvents(): { app: ReturnType<typeof writesApp>; emitted: WriteEvent[] } {
  const emitted: WriteEvent[] = [];
  const events: EventSink = {
    emit(event) {
      emitted.push(event);
      return undefined;
    },
  };
  return { app: writesApp({ events }), emitted };
}

interface SampleContainer {
  id: string;
  status: string;
  weight_lb: number;
}

describe('POST /v1/jobs', () => {
  it.each([
    ['ends before it starts', { start: '10:00', end: '08:00' }, '"08:00"'],
    ['ends as it starts', { start: '08:00', end: '08:00' }, '"08:00"'],
  ])('a window that %s: 400 on window.end, the rule in words', async (_case, window, received) => {
    const app = writesApp();
    const result = await send(app, 'POST', '/v1/jobs', {
      body: { type: 'ci_pickup', client: unknownId('cli'), site: unknownId('site'), scheduled_for: '2026-08-03', window },
    });
    expectError(result, invalid('window.end'));
    expectMessage(result, `Invalid window.end: must be later than window.start; received ${received}.`);
  });

  it('a site the account does not hold, with a client it does: 404 naming site', async () => {
    const app = writesApp();
    const site = await findSample<{ id: string; client: string }>(app, '/v1/sites');
    const missing = unknownId('site');
    const result = await send(app, 'POST', '/v1/jobs', { body: { type: 'ci_pickup', client: site.client, site: missing } });
    expectError(result, notFound('site'));
    // An ID of the shape the sandbox's creates answer with: the 404 says that nothing is kept.
    expectMessage(
      result,
      `No such site: "${missing}"; site must name a site of the account your API key opens. If a create answered with it: the sandbox keeps nothing, so a site created here is answered, then dropped, and never found later; use a sample site (GET /v1/sites lists them).`,
    );
  });
});

describe('PATCH /v1/containers/{id}', () => {
  it('a shipped container is at its last status: 422 saying so, for any status sent', async () => {
    const app = writesApp();
    const container = await findSample<SampleContainer>(app, '/v1/containers?status=shipped');
    for (const status of ['open', 'received', 'shipped']) {
      const result = await send(app, 'PATCH', `/v1/containers/${container.id}`, { body: { status } });
      expectError(result, stateInvalid());
      expectMessage(result, `Container ${container.id} is shipped, its last status; it cannot move to ${status}.`);
    }
  });

  it('a container before its last status names the one status it may move to', async () => {
    const app = writesApp();
    const container = await findSample<SampleContainer>(app, '/v1/containers?status=consolidated');
    const result = await send(app, 'PATCH', `/v1/containers/${container.id}`, { body: { status: 'open' } });
    expectError(result, stateInvalid());
    expectMessage(result, `Container ${container.id} is consolidated; it can only move forward to shipped, not open.`);
  });

  it('full → received emits one container.received, whose data.object is the answer', async () => {
    const { app, emitted } = appWithEvents();
    const container = await findSample<SampleContainer>(app, '/v1/containers?status=full');
    const result = await send(app, 'PATCH', `/v1/containers/${container.id}`, { body: { status: 'received' } });
    expectStatus(result, 200);
    expect(emitted.map((event) => event.type)).toEqual(['container.received']);
    const event = JSON.parse((emitted[0] as WriteEvent).body);
    expect(event.type).toBe('container.received');
    expect(event.data.object).toEqual(result.json);
  });

  it.each([
    ['a new weight on an open container', 'open', (c: SampleContainer) => ({ weight_lb: c.weight_lb + 17 })],
    ['a new weight on a received container', 'received', (c: SampleContainer) => ({ weight_lb: c.weight_lb + 17 })],
    ['open → full', 'open', () => ({ status: 'full' })],
    ['received → consolidated', 'received', () => ({ status: 'consolidated' })],
    ['consolidated → shipped', 'consolidated', () => ({ status: 'shipped' })],
    ['an empty body', 'received', () => ({})],
  ])('%s succeeds and emits nothing (only the move to received does)', async (_case, status, body) => {
    const { app, emitted } = appWithEvents();
    const container = await findSample<SampleContainer>(app, `/v1/containers?status=${status}`);
    const result = await send(app, 'PATCH', `/v1/containers/${container.id}`, { body: body(container) });
    expectStatus(result, 200);
    expect(emitted).toEqual([]);
  });
});

describe('waste_codes (POST /v1/waste_profiles)', () => {
  const LISTS = 'must be a waste code of the federal RCRA D, F, K, P or U lists or of the California, Texas or Washington state lists';
  const create = (waste_codes: unknown) =>
    send(writesApp(), 'POST', '/v1/waste_profiles', { body: { client: unknownId('cli'), name: 'Spent solvents', waste_codes } });

  it('an unknown code that is a known one but for case: 400 naming its index, with the suggestion', async () => {
    const result = await create(['D001', 'f005']);
    expectError(result, invalid('waste_codes[1]'));
    expectMessage(result, `Invalid waste_codes[1]: ${LISTS}; received "f005". Did you mean "F005"?`);
  });

  it('an unknown code close to none: the same words, no suggestion', async () => {
    const result = await create(['NOT-A-WASTE-CODE-AT-ALL']);
    expectError(result, invalid('waste_codes[0]'));
    expectMessage(result, `Invalid waste_codes[0]: ${LISTS}; received "NOT-A-WASTE-CODE-AT-ALL".`);
  });

  it('a code listed twice: 400 on the repeat, naming the first', async () => {
    const result = await create(['D001', 'F005', 'D001']);
    expectError(result, invalid('waste_codes[2]'));
    expectMessage(result, 'Invalid waste_codes[2]: must list each waste code once; D001 is also waste_codes[0]; received "D001".');
  });
});

describe('events and url (POST /v1/webhook_endpoints)', () => {
  /** The twelve event types of the reference ("Events", "Event types"), in its order. */
  const TWELVE =
    'must be one of the 12 event types (job.created, job.scheduled, job.closed, staff.accepted, container.received, ' +
    'container.storage_status_changed, manifest.ready_for_signature, manifest.signed, profile.approved, ' +
    'profile.expiring, invoice.sent, invoice.paid), or "*" alone';
  const create = (events: unknown, url = 'https://example.com/webhooks/waste-ops') =>
    send(writesApp(), 'POST', '/v1/webhook_endpoints', { body: { url, events } });

  it('a misspelt event type: 400 naming its index, every type listed, with the suggestion', async () => {
    const result = await create(['job.closed', 'job.craeted']);
    expectError(result, invalid('events[1]'));
    expectMessage(result, `Invalid events[1]: ${TWELVE}; received "job.craeted". Did you mean "job.created"?`);
  });

  it('an event type close to none: the same words, no suggestion', async () => {
    const result = await create(['nothing.that.exists.here']);
    expectError(result, invalid('events[0]'));
    expectMessage(result, `Invalid events[0]: ${TWELVE}; received "nothing.that.exists.here".`);
  });

  it.each([
    [['*', 'job.created'], 0],
    [['job.created', '*'], 1],
  ])('%j: "*" must be alone, 400 at its index', async (events, index) => {
    const result = await create(events);
    expectError(result, invalid(`events[${index}]`));
    expectMessage(result, `Invalid events[${index}]: must be the only element when it is "*"; received "*".`);
  });

  it('an event type listed twice: 400 on the repeat, naming the first', async () => {
    const result = await create(['job.created', 'job.closed', 'job.created']);
    expectError(result, invalid('events[2]'));
    expectMessage(result, 'Invalid events[2]: must list each event type once; job.created is also events[0]; received "job.created".');
  });

  it('a URL that is not public: the reason, then what webhook URLs are', async () => {
    const result = await create(['*'], 'https://localhost/hook');
    expectError(result, invalid('url'));
    expectMessage(
      result,
      'Invalid url: must not point at localhost (webhook URLs are public https URLs); received "https://localhost/hook".',
    );
  });
});

describe('POST /v1/manifests for a job whose client or site the account lacks', () => {
  // Sample data never has such a job: a store is made with one (a seed of this file's own, so no
  // other test's pages are shared), to pin what the handler answers if it ever had.
  const SEED = 'exact-messages-doctored';
  let store: SampleStore;
  let withoutClient: { id: string; client: string };
  let withoutSite: { id: string; site: string };

  beforeAll(() => {
    const data = generateSampleData(SEED);
    const account = data.accounts.A;
    const eligible = account.jobs.filter((job) => job.status !== 'draft' && job.status !== 'cancelled');
    const first = eligible[0];
    const second = eligible.find((job) => first !== undefined && job.client !== first.client && job.site !== first.site);
    if (first === undefined || second === undefined) throw new Error('the sample data should hold two jobs of two clients past draft');
    withoutClient = first;
    withoutSite = second;
    const doctored: SampleData = {
      ...data,
      accounts: {
        ...data.accounts,
        A: {
          ...account,
          clients: account.clients.filter((client) => client.id !== first.client),
          sites: account.sites.filter((site) => site.id !== second.site),
        },
      },
    };
    store = SampleStore.fromData(doctored);
  });

  it("the job's client is missing: 404 on job, naming the client", async () => {
    const app = testApp({ SANDBOX_SEED: SEED }, { store });
    const result = await send(app, 'POST', '/v1/manifests', { body: { job: withoutClient.id, designated_facility: FACILITY } });
    expectError(result, notFound('job'));
    expectMessage(result, `No such client: "${withoutClient.client}"; job must name a client of the account your API key opens.`);
  });

  it("the job's site is missing: 404 on job, naming the site", async () => {
    const app = testApp({ SANDBOX_SEED: SEED }, { store });
    const result = await send(app, 'POST', '/v1/manifests', { body: { job: withoutSite.id, designated_facility: FACILITY } });
    expectError(result, notFound('job'));
    expectMessage(result, `No such site: "${withoutSite.site}"; job must name a site of the account your API key opens.`);
  });
});

describe('the list page cache', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('serves a cached page from the cache: a hit builds nothing, so it drops no stale page either', async () => {
    // Pages live 30 s and stale ones are dropped only when a page is built (docs/behaviour.md,
    // "Memory"). The cache's clock is Date.now, faked here, far past any page already cached.
    vi.useFakeTimers({ toFake: ['Date'] });
    const base = Date.now() + 5 * 60_000;
    const app = testApp();
    const get = async (path: string) => {
      const result = await send(app, 'GET', path);
      expectStatus(result, 200);
      return result.text;
    };
    vi.setSystemTime(base);
    // A miss at `base` drops every page built before `base - 30 s`: all that other tests left.
    await get('/v1/sites?limit=93');
    // Page A, asked twice: cached at `base`.
    await get('/v1/clients?limit=91');
    await get('/v1/clients?limit=91');
    vi.setSystemTime(base + 20_000);
    // Page B, asked twice: cached at `base + 20 s`.
    await get('/v1/clients?limit=92');
    const cachedB = await get('/v1/clients?limit=92');
    const size = listPageCache.size;
    const bytes = listPageCache.bytes;
    // 35 s after A was built, B (15 s old) asked again: a hit, so nothing is built and A stays.
    vi.setSystemTime(base + 35_000);
    expect(await get('/v1/clients?limit=92')).toBe(cachedB);
    expect(listPageCache.size).toBe(size);
    expect(listPageCache.bytes).toBe(bytes);
    // Then a miss, long after: it drops A and B, so this test leaves no page dated in the future.
    vi.setSystemTime(base + 120_000);
    await get('/v1/sites?limit=94');
    expect(listPageCache.size).toBe(0);
  });
});

describe('a GET by ID that finds nothing', () => {
  // An ID of the shape a create answers with (a prefix and 14 base-62 characters) may come from a
  // create here, which keeps nothing (SANDBOX.md, "Nothing kept"): the 404 says so. Other IDs,
  // and objects no POST creates, get the plain words.
  const keptNothing = (words: string, collection: string) =>
    ` If a create answered with it: the sandbox keeps nothing, so a ${words} created here is answered, then dropped, and never found later; use a sample ${words} (GET /v1/${collection} lists them).`;

  it.each([
    ['/v1/clients/cli_ZZZZZZZZZZZZZZ', `No such client: "cli_ZZZZZZZZZZZZZZ".${keptNothing('client', 'clients')}`],
    [
      '/v1/waste_profiles/prof_ZZZZZZZZZZZZZZ',
      `No such waste profile: "prof_ZZZZZZZZZZZZZZ".${keptNothing('waste profile', 'waste_profiles')}`,
    ],
    ['/v1/sites/site_ZZZZZZZZZZZZZZ', `No such site: "site_ZZZZZZZZZZZZZZ".${keptNothing('site', 'sites')}`],
    ['/v1/jobs/job_ZZZZZZZZZZZZZZ', `No such job: "job_ZZZZZZZZZZZZZZ".${keptNothing('job', 'jobs')}`],
    ['/v1/manifests/man_ZZZZZZZZZZZZZZ', `No such manifest: "man_ZZZZZZZZZZZZZZ".${keptNothing('manifest', 'manifests')}`],
    ['/v1/clients/cli_x', 'No such client: "cli_x".'],
    // Invoices and events come from the platform, never from a POST here: the plain words.
    ['/v1/invoices/inv_ZZZZZZZZZZZZZZ', 'No such invoice: "inv_ZZZZZZZZZZZZZZ".'],
    ['/v1/events/evt_ZZZZZZZZZZZZZZ', 'No such event: "evt_ZZZZZZZZZZZZZZ".'],
    ['/v1/containers/cont_ZZZZZZZZZZZZZZ', 'No such container: "cont_ZZZZZZZZZZZZZZ".'],
  ])('GET %s: 404 on id, in these words', async (path, message) => {
    const result = await send(writesApp(), 'GET', path);
    expectError(result, notFound('id'));
    expectMessage(result, message);
  });

  it('DELETE /v1/webhook_endpoints/we_…: the same words (the only way to name an endpoint by ID)', async () => {
    const result = await send(writesApp(), 'DELETE', '/v1/webhook_endpoints/we_ZZZZZZZZZZZZZZ');
    expectError(result, notFound('id'));
    expectMessage(result, `No such webhook endpoint: "we_ZZZZZZZZZZZZZZ".${keptNothing('webhook endpoint', 'webhook_endpoints')}`);
  });
});

describe('a required text field sent blank (POST /v1/clients)', () => {
  // docs/behaviour.md: "Names and address lines must not be blank; no length limit."
  it.each([
    ['', 'an empty string'],
    ['   ', '"   "'],
    ['\t', '"\\t"'],
  ])('name %j: 400 saying it must not be empty or only spaces', async (name, received) => {
    const result = await send(writesApp(), 'POST', '/v1/clients', { body: { name } });
    expectError(result, invalid('name'));
    expectMessage(result, `Invalid name: must not be empty or only spaces; received ${received}.`);
  });
});

describe('an ID field sent as another type (POST /v1/sites)', () => {
  it('a number for client: 400 with the rule of a client ID, as for a wrong prefix', async () => {
    const address = { line1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701' };
    const result = await send(writesApp(), 'POST', '/v1/sites', { body: { client: 5, name: 'Dock 4', address } });
    expectError(result, invalid('client'));
    expectMessage(result, 'Invalid client: must be the ID of a client, which begins with cli_; received 5.');
  });
});

describe('metadata (POST and PATCH /v1/clients)', () => {
  // SANDBOX.md, "Validation decisions": at most 20 pairs, keys 1..40 characters, values strings
  // up to 500 characters. A key is named in param unless it is empty or longer than 100 characters.
  const k = (length: number) => 'k'.repeat(length);
  const rule = 'must have keys of 1 to 40 characters';

  it.each([
    ['not an object', 'tag', 'metadata', 'Invalid metadata: must be an object of string values; received "tag".'],
    ['an empty key', { '': 'x' }, 'metadata', `Invalid metadata: ${rule}; received a key that is an empty string.`],
    [
      'a 41-character key',
      { [k(41)]: 'x' },
      `metadata.${k(41)}`,
      `Invalid metadata.${k(41)}: ${rule}; received the key "${k(41)}" (41 characters).`,
    ],
    [
      'a 100-character key, still named',
      { [k(100)]: 'x' },
      `metadata.${k(100)}`,
      `Invalid "metadata.${k(51)}…": ${rule}; received the key "${k(60)}…" (100 characters).`,
    ],
    [
      'a 101-character key, reported on metadata',
      { [k(101)]: 'x' },
      'metadata',
      `Invalid metadata: ${rule}; received the key "${k(60)}…" (101 characters).`,
    ],
    ['a number value', { count: 5 }, 'metadata.count', 'Invalid metadata.count: must be a string; received 5.'],
    [
      'a 501-character value',
      { note: 'v'.repeat(501) },
      'metadata.note',
      `Invalid metadata.note: must be at most 500 characters; received "${'v'.repeat(60)}…" (501 characters).`,
    ],
  ])('on create, %s: 400 in these words', async (_case, metadata, param, message) => {
    const result = await send(writesApp(), 'POST', '/v1/clients', { body: { name: 'Acme Labs', kind: 'laboratory', metadata } });
    expectError(result, invalid(param));
    expectMessage(result, message);
  });

  it('on update, a number value: the rule says null removes the key', async () => {
    const app = writesApp();
    const client = await findSample<{ id: string }>(app, '/v1/clients');
    const result = await send(app, 'PATCH', `/v1/clients/${client.id}`, { body: { metadata: { count: 5 } } });
    expectError(result, invalid('metadata.count'));
    expectMessage(result, 'Invalid metadata.count: must be a string, or null to remove the key; received 5.');
  });
});

describe('the words of the other input rules (docs/behaviour.md: a 400 says what the rule is)', () => {
  const site = (address: Record<string, string>) => ({
    client: unknownId('cli'),
    name: 'Yard',
    address: { line1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', ...address },
  });

  it('a container weight below 0', async () => {
    const app = writesApp();
    const container = await findSample<{ id: string }>(app, '/v1/containers');
    const result = await send(app, 'PATCH', `/v1/containers/${container.id}`, { body: { weight_lb: -1 } });
    expectError(result, invalid('weight_lb'));
    expectMessage(result, 'Invalid weight_lb: must be a whole number of pounds, 0 or more; received -1.');
  });

  it('a state that is no US postal code, with the code it may have meant', async () => {
    const result = await send(writesApp(), 'POST', '/v1/sites', { body: site({ state: 'tx' }) });
    expectError(result, invalid('address.state'));
    expectMessage(
      result,
      'Invalid address.state: must be a US state or territory postal code such as TX; received "tx". Did you mean "TX"?',
    );
  });

  it('a ZIP code with a sixth digit', async () => {
    const result = await send(writesApp(), 'POST', '/v1/sites', { body: site({ postal_code: '787011' }) });
    expectError(result, invalid('address.postal_code'));
    expectMessage(result, 'Invalid address.postal_code: must be a ZIP code (12345 or 12345-6789); received "787011".');
  });

  it.each([
    [[1], 'waste_codes[0]', 'must be a waste code such as D001, as a string; received 1.'],
    ['D001', 'waste_codes', 'must be an array of waste codes such as ["D001", "F005"]; received "D001".'],
    [[], 'waste_codes', 'must list at least one waste code; received an empty array.'],
  ])('waste_codes %j', async (waste_codes, param, words) => {
    const result = await send(writesApp(), 'POST', '/v1/waste_profiles', {
      body: { client: unknownId('cli'), name: 'Spent solvents', waste_codes },
    });
    expectError(result, invalid(param));
    expectMessage(result, `Invalid ${param}: ${words}`);
  });

  it.each([
    [[1], 'events[0]', 'must be an event type such as job.created, as a string; received 1.'],
    ['job.created', 'events', 'must be an array of event types such as ["job.created"], or ["*"] for all; received "job.created".'],
    [[], 'events', 'must list at least one event type, or be ["*"] for all; received an empty array.'],
  ])('events %j', async (events, param, words) => {
    const result = await send(writesApp(), 'POST', '/v1/webhook_endpoints', {
      body: { url: 'https://example.com/webhooks/waste-ops', events },
    });
    expectError(result, invalid(param));
    expectMessage(result, `Invalid ${param}: ${words}`);
  });
});
