// The security review as tests: API keys never logged or echoed; keys compared in constant time;
// a webhook endpoint's secret shown only when it is created; no response carries a field
// outside the reference's schemas; and no sample record holds a social security number, bank
// account or routing number, drug or alcohol test record or medical information (reference,
// "Sample data").
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { createApp } from '../src/app.js';
import { type ApiKey, constantTimeEqual, KeyRing } from '../src/auth/keys.js';
import { readConfig } from '../src/config.js';
import type { Endpoint } from '../src/http/endpoint.js';
import { ENDPOINTS } from '../src/resources/index.js';
import { call, testApp } from './helpers.js';

/** Secret keys of a custom table: these must never appear in a log line or a response. */
const SECRET_KEY = 'svc_test_secret_ci_key_4Xq9Lm2Z';
const SECRET_OTHER = 'svc_test_secret_other_key_7Hb3Kp';
const SECRET_REVOKED = 'svc_test_secret_revoked_9Tn5Wd';
const KEY_TABLE = JSON.stringify([
  { key: SECRET_KEY, account: 'A', scopes: '*' },
  { key: SECRET_OTHER, account: 'B', scopes: '*' },
  { key: SECRET_REVOKED, account: 'A', scopes: '*', revoked: true },
  { key: 'svc_test_secret_readonly_2Cv8Rj', account: 'A', scopes: ['jobs:read'] },
]);

const GETS = ENDPOINTS.filter((endpoint) => endpoint.method === 'GET');
const LISTS = GETS.filter((endpoint) => endpoint.pathId === undefined);

describe('API keys never appear in logs or error messages', () => {
  let logs: string[];
  let spies: MockInstance[];

  beforeEach(() => {
    logs = [];
    const capture = (...args: unknown[]) => {
      logs.push(args.map((arg) => (arg instanceof Error ? `${arg.message}\n${arg.stack}` : String(arg))).join(' '));
    };
    spies = (['log', 'error', 'warn', 'info', 'debug'] as const).map((name) => vi.spyOn(console, name).mockImplementation(capture));
  });

  afterEach(() => {
    for (const spy of spies) spy.mockRestore();
  });

  it('through every kind of answer, the onError path of a real fault included', async () => {
    // A clock that fails: a real fault inside a handler, which app.onError logs.
    const faulty = testApp(
      { SANDBOX_KEYS: KEY_TABLE },
      {
        now: () => {
          throw new Error('clock broke');
        },
      },
    );
    const app = testApp({ SANDBOX_KEYS: KEY_TABLE, SANDBOX_RATE_LIMIT: '2' });
    const presented = [
      SECRET_KEY,
      SECRET_OTHER,
      SECRET_REVOKED,
      `${SECRET_KEY}x`,
      SECRET_KEY.slice(0, -1),
      SECRET_KEY.toUpperCase(),
      `svc_live_${SECRET_KEY}`,
    ];
    const bodies: string[] = [];
    for (const key of presented) {
      for (const [target, path, method, body, headers] of [
        [app, '/v1/jobs?limit=1', 'GET', undefined, {}],
        [app, '/v1/jobs/job_00000000000000', 'GET', undefined, {}],
        [app, '/v1/jobs?limit=0', 'GET', undefined, {}],
        [app, '/v1/nope', 'GET', undefined, {}],
        [app, '/v1/jobs', 'PUT', undefined, {}],
        [app, '/v1/clients', 'POST', '{"name":', {}],
        [app, '/v1/clients', 'POST', '{}', { 'Idempotency-Key': 'k'.repeat(300) }],
        [app, '/v1/jobs', 'GET', undefined, { 'Sandbox-Simulate': 'api_error' }],
        [app, '/v1/jobs', 'GET', undefined, { 'Sandbox-Simulate': 'rate_limited' }],
        [faulty, '/v1/clients', 'POST', '{"name":"Acme","kind":"laboratory"}', {}],
      ] as const) {
        const result = await call(target, path, { method, key, headers, ...(body === undefined ? {} : { body }) });
        bodies.push(result.text);
      }
    }
    // The faulty app did reach onError and log (so the log capture works).
    expect(logs.join('\n')).toMatch(/clock broke/);
    for (const secret of [SECRET_KEY, SECRET_OTHER, SECRET_REVOKED, 'secret_ci_key', 'SECRET_CI_KEY']) {
      expect(logs.join('\n')).not.toContain(secret);
      for (const text of bodies) expect(text).not.toContain(secret);
    }
  });
});

describe('keys are compared in constant time', () => {
  it('the comparison looks at a fixed number of bytes whatever the lengths, and is exact', () => {
    const bytes = (text: string) => new TextEncoder().encode(text);
    expect(constantTimeEqual(bytes(SECRET_KEY), bytes(SECRET_KEY))).toBe(true);
    for (const other of ['', 's', SECRET_KEY.slice(0, -1), `${SECRET_KEY}\u0000`, `${SECRET_KEY}x`, 'x'.repeat(5000)]) {
      expect(constantTimeEqual(bytes(other), bytes(SECRET_KEY))).toBe(false);
      expect(constantTimeEqual(bytes(SECRET_KEY), bytes(other))).toBe(false);
    }
    // Reads of each input are counted: the same for a 1-byte and a 200-byte key.
    const counted = (length: number) => {
      let reads = 0;
      const text = bytes('a'.repeat(length));
      // An array-like that counts the bytes read from it.
      const counting = new Proxy([...text], {
        get(target, property, receiver) {
          if (typeof property === 'string' && /^\d+$/.test(property)) reads++;
          return Reflect.get(target, property, receiver);
        },
      }) as unknown as Uint8Array;
      constantTimeEqual(counting, bytes(SECRET_KEY));
      return reads;
    };
    expect(counted(1)).toBe(counted(200));
    expect(counted(1)).toBe(counted(SECRET_KEY.length));
    // Past the bytes compared, two equal inputs are still no match: nothing that long is a key.
    const long = bytes('k'.repeat(300));
    expect(constantTimeEqual(long, long.slice())).toBe(false);
  });

  // Keys that HTTP cannot carry (a NUL in a header) or that no table may hold (past 256 bytes):
  // the ring of a hand-built table is asked directly.
  it('the lookup matches the whole key: no trailing zero byte, nothing past the bytes compared', () => {
    const scopes = new Set(readConfig({}).keys[0]?.scopes);
    const long = `svc_test_${'k'.repeat(247)}`;
    const ring = new KeyRing([
      { key: SECRET_KEY, account: 'A', scopes, revoked: false },
      { key: long, account: 'B', scopes, revoked: false },
    ]);
    expect(ring.find(SECRET_KEY)?.account).toBe('A');
    expect(ring.find(`${SECRET_KEY}\u0000`)).toBeUndefined();
    expect(ring.find(`${SECRET_KEY}\u0000\u0000\u0000`)).toBeUndefined();
    expect(ring.find(long)?.account).toBe('B');
    expect(ring.find(`${long}x`)).toBeUndefined();
  });

  it('every near miss of a key, of every length, is an invalid key', async () => {
    const app = testApp({ SANDBOX_KEYS: KEY_TABLE });
    const nearMisses = new Set<string>();
    for (let length = 1; length < SECRET_KEY.length; length++) nearMisses.add(SECRET_KEY.slice(0, length));
    for (let index = 0; index < SECRET_KEY.length; index++) {
      const char = SECRET_KEY[index] === 'a' ? 'b' : 'a';
      nearMisses.add(`${SECRET_KEY.slice(0, index)}${char}${SECRET_KEY.slice(index + 1)}`);
    }
    for (const tail of ['x', '_', ' x', 'xx'.repeat(100)]) nearMisses.add(`${SECRET_KEY}${tail}`);
    for (const key of nearMisses) {
      const result = await call(app, '/v1/jobs?limit=1', { key });
      expect(result.status, key).toBe(401);
      expect(result.json.error.code).toBe('api_key_invalid');
    }
    expect((await call(app, '/v1/jobs?limit=1', { key: SECRET_KEY })).status).toBe(200);
  });

  // The lookup every request runs (the key ring of src/auth/keys.ts) must compare the presented
  // key with every entry in full, never stop at the first match nor compare the key's text with
  // ===. Two ways to see it without a clock: entries whose key text counts its reads, and a table
  // in which one key is listed twice (only a hand-built table can do that; SANDBOX_KEYS refuses it).
  it('the lookup of every request reads no key text and compares every entry', async () => {
    let reads = 0;
    const entry = (key: string, account: 'A' | 'B'): ApiKey => {
      const value = { account, scopes: new Set(readConfig({}).keys[0]?.scopes), revoked: false } as Omit<ApiKey, 'key'>;
      return Object.defineProperty(value, 'key', {
        enumerable: true,
        get: () => {
          reads++;
          return key;
        },
      }) as ApiKey;
    };
    const keys = [entry(SECRET_OTHER, 'B'), entry(SECRET_KEY, 'A'), entry('svc_test_secret_padding_1', 'A'), entry(SECRET_KEY, 'B')];
    const firstJob = async (key: string) => {
      const result = await call(testApp(), '/v1/jobs?limit=1', { key });
      expect(result.status, result.text).toBe(200);
      return result.json.data[0].id as string;
    };
    const accountA = await firstJob('svc_test_sandbox_public');
    const accountB = await firstJob('svc_test_sandbox_other');
    const custom = createApp({ ...readConfig({ SANDBOX_RATE_LIMIT: 'off' }), keys }, { clientAddress: () => '192.0.2.10' });
    const built = reads;
    expect(accountA).not.toBe(accountB);
    expect((await call(custom, '/v1/jobs?limit=1', { key: 'svc_test_unknown_0' })).status).toBe(401);
    // Lookups that find their key (a 401's message may name a working key, so those are not counted).
    reads = 0;
    for (let i = 0; i < 5; i++) {
      // Listed at [1] for A and at [3] for B: the lookup went on past the first match.
      expect((await call(custom, '/v1/jobs?limit=1', { key: SECRET_KEY })).json.data[0].id).toBe(accountB);
      expect((await call(custom, '/v1/jobs?limit=1', { key: SECRET_OTHER })).json.data[0].id).toBe(accountB);
    }
    expect(reads, 'key text read while answering requests').toBe(0);
    // Read when the app was built (the ring copies each key; the docs show a working key).
    expect(built).toBeGreaterThanOrEqual(keys.length);
  });
});

/** Every record the GET endpoints serve, page by page, with the endpoint that served it. */
async function everyAnswer(
  app: ReturnType<typeof testApp>,
  key: string,
): Promise<{ endpoint: Endpoint; path: string; json: unknown; text: string }[]> {
  const answers: { endpoint: Endpoint; path: string; json: unknown; text: string }[] = [];
  for (const endpoint of LISTS) {
    let cursor: string | null = null;
    for (let page = 0; page < 200; page++) {
      const path: string = `${endpoint.path}?limit=100${cursor ? `&starting_after=${cursor}` : ''}`;
      const result = await call(app, path, { key });
      expect(result.status, result.text).toBe(200);
      answers.push({ endpoint, path, json: result.json, text: result.text });
      if (!result.json.has_more) break;
      cursor = result.json.next_cursor;
    }
  }
  // GET by ID for every record of each list (lists and GETs return the same records).
  for (const endpoint of GETS.filter((get) => get.pathId !== undefined)) {
    const list = answers.filter((answer) => answer.endpoint.path === endpoint.path.replace('/{id}', ''));
    const ids = list.flatMap((answer) => (answer.json as { data: { id: string }[] }).data.map((record) => record.id));
    for (const id of ids.filter((_, index) => index % 7 === 0)) {
      const path = endpoint.path.replace('{id}', id);
      const result = await call(app, path, { key });
      answers.push({ endpoint, path, json: result.json, text: result.text });
    }
  }
  return answers;
}

describe('responses carry only the fields of the reference', () => {
  it('every page and record of both accounts fits its strict schema, and no webhook secret is shown', async () => {
    const app = testApp({ SANDBOX_KEYS: KEY_TABLE });
    for (const key of [SECRET_KEY, SECRET_OTHER]) {
      const answers = await everyAnswer(app, key);
      expect(answers.length).toBeGreaterThan(20);
      for (const answer of answers) {
        const parsed = answer.endpoint.success.schema().safeParse(answer.json);
        expect(parsed.success, `${answer.path}: ${parsed.error?.message}`).toBe(true);
        expect(answer.text, answer.path).not.toMatch(/whsec_/);
      }
    }
  });

  it("a webhook endpoint's secret is in its create response and nowhere after", async () => {
    const app = testApp({ SANDBOX_KEYS: KEY_TABLE });
    const created = await call(app, '/v1/webhook_endpoints', {
      method: 'POST',
      key: SECRET_KEY,
      body: { url: 'https://example.com/hooks', events: ['*'] },
      headers: { 'Idempotency-Key': 'secret-once' },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.json.secret).toMatch(/^whsec_/);
    const secret = created.json.secret as string;
    // A replay is the create response itself, so it may show it; nothing else may.
    const later = [
      await call(app, `/v1/webhook_endpoints/${created.json.id}`, { method: 'DELETE', key: SECRET_KEY }),
      await call(app, `/v1/webhook_endpoints/${created.json.id}`, { key: SECRET_KEY }),
      await call(app, '/v1/webhook_endpoints?limit=100', { key: SECRET_KEY }),
      await call(app, '/v1/events?limit=100', { key: SECRET_KEY }),
    ];
    for (const result of later) expect(result.text).not.toContain(secret);
    const listed = (await call(app, '/v1/webhook_endpoints?limit=100', { key: SECRET_KEY })).json.data as { secret: unknown }[];
    expect(listed.every((endpoint) => endpoint.secret === null)).toBe(true);
  });

  it('every write answers with a record of its strict schema', async () => {
    const app = testApp({ SANDBOX_KEYS: KEY_TABLE });
    const site = (await call(app, '/v1/sites?limit=1', { key: SECRET_KEY })).json.data[0];
    const job = (await call(app, '/v1/jobs?status=scheduled&limit=1', { key: SECRET_KEY })).json.data[0];
    const container = (await call(app, '/v1/containers?status=open&limit=1', { key: SECRET_KEY })).json.data[0];
    const profile = (await call(app, '/v1/waste_profiles?status=draft&limit=1', { key: SECRET_KEY })).json.data[0];
    const webhook = (await call(app, '/v1/webhook_endpoints?limit=1', { key: SECRET_KEY })).json.data[0];
    const manifest = (await call(app, '/v1/manifests?limit=1', { key: SECRET_KEY })).json.data[0];
    const writes: [string, string, unknown][] = [
      ['createClient', '/v1/clients', { name: 'Acme', kind: 'laboratory', metadata: { a: 'b' } }],
      ['updateClient', `/v1/clients/${site.client}`, { name: 'Renamed' }],
      [
        'createSite',
        '/v1/sites',
        { client: site.client, name: 'Yard', address: { line1: '1 Main', city: 'Austin', state: 'TX', postal_code: '78701' } },
      ],
      ['updateSite', `/v1/sites/${site.id}`, { access_notes: 'Gate 2' }],
      ['createWasteProfile', '/v1/waste_profiles', { client: site.client, name: 'Stream', waste_codes: ['D001'] }],
      ['updateWasteProfile', `/v1/waste_profiles/${profile.id}`, { name: 'Stream 2' }],
      ['createJob', '/v1/jobs', { type: 'ci_pickup', client: site.client, site: site.id }],
      ['updateJob', `/v1/jobs/${job.id}`, { scheduled_for: '2026-09-12' }],
      ['cancelJob', `/v1/jobs/${job.id}/cancel`, { reason: 'Client closed early' }],
      ['updateContainer', `/v1/containers/${container.id}`, { status: 'full' }],
      ['createManifest', '/v1/manifests', { job: job.id, designated_facility: manifest.designated_facility.epa_id }],
      ['createWebhookEndpoint', '/v1/webhook_endpoints', { url: 'https://example.com/h', events: ['job.created'] }],
      ['deleteWebhookEndpoint', `/v1/webhook_endpoints/${webhook.id}`, undefined],
    ];
    const done = new Set<string>();
    for (const [operationId, path, body] of writes) {
      const endpoint = ENDPOINTS.find((candidate) => candidate.operationId === operationId) as Endpoint;
      const result = await call(app, path, { method: endpoint.method, key: SECRET_KEY, ...(body === undefined ? {} : { body }) });
      expect(result.status, `${operationId}: ${result.text}`).toBe(endpoint.success.status);
      const parsed = endpoint.success.schema().safeParse(result.json);
      expect(parsed.success, `${operationId}: ${parsed.error?.message}`).toBe(true);
      done.add(operationId);
    }
    // Every write of the route table was tried.
    expect([...done].sort()).toEqual(
      ENDPOINTS.filter((endpoint) => endpoint.method !== 'GET')
        .map((endpoint) => endpoint.operationId)
        .sort(),
    );
  });
});

// ---- PII scan ------------------------------------------------------------------------------

/** ABA routing numbers carry a checksum: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10). */
function isRoutingNumber(digits: string): boolean {
  const d = [...digits].map(Number);
  if (d.length !== 9 || d.every((digit) => digit === 0)) return false;
  const sum =
    3 * ((d[0] ?? 0) + (d[3] ?? 0) + (d[6] ?? 0)) +
    7 * ((d[1] ?? 0) + (d[4] ?? 0) + (d[7] ?? 0)) +
    ((d[2] ?? 0) + (d[5] ?? 0) + (d[8] ?? 0));
  return sum % 10 === 0;
}

const PII_PATTERNS: [string, RegExp][] = [
  ['social security number', /\b\d{3}-\d{2}-\d{4}\b/],
  ['social security (words)', /\b(ssn|social security)\b/i],
  ['bank account (words)', /\b(bank account|account number|routing number|iban|swift)\b/i],
  ['drug or alcohol test', /\b(drug|alcohol|breathalyzer|urinalysis)\b/i],
  ['medical information', /\b(medical|diagnos\w*|prescription|disabilit\w*|patient|health condition)\b/i],
];

/** Everything in a record that looks like personal data a sandbox must not hold. */
function piiFindings(record: unknown): string[] {
  const findings: string[] = [];
  const visit = (value: unknown, path: string) => {
    if (typeof value === 'string') {
      for (const [name, pattern] of PII_PATTERNS) if (pattern.test(value)) findings.push(`${name} at ${path}: ${value}`);
      // A lone 9-digit number with a valid ABA checksum could be a routing number.
      for (const match of value.matchAll(/(?<![\w-])\d{9}(?![\w-])/g)) {
        if (isRoutingNumber(match[0])) findings.push(`routing number at ${path}: ${value}`);
      }
      // Long runs of digits alone are account numbers in the making.
      if (/(?<![\w-])\d{10,17}(?![\w-])/.test(value)) findings.push(`account-like number at ${path}: ${value}`);
    } else if (typeof value === 'number' && Number.isInteger(value) && String(value).length === 9 && isRoutingNumber(String(value))) {
      findings.push(`routing number at ${path}: ${value}`);
    } else if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) visit(item, `${path}[${index}]`);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        for (const [name, pattern] of PII_PATTERNS) if (pattern.test(key)) findings.push(`${name} in the field name ${path}.${key}`);
        visit(item, `${path}.${key}`);
      }
    }
  };
  visit(record, '');
  return findings;
}

describe('no personal data in the sample records', () => {
  it('the scanner catches a planted SSN, routing number and medical or test note', () => {
    expect(piiFindings({ id: 'x', notes: 'Driver 123-45-6789' })).toEqual(['social security number at .notes: Driver 123-45-6789']);
    expect(piiFindings({ crew: [{ name: 'A', bank: '021000021' }] }).join()).toMatch(/routing number/);
    expect(piiFindings({ metadata: { result: 'Random drug test passed' } }).join()).toMatch(/drug/);
    expect(piiFindings({ access_notes: 'Diagnosis on file' }).join()).toMatch(/medical/);
    expect(piiFindings({ account: '000123456789' }).join()).toMatch(/account-like/);
    // EPA IDs and manifest tracking numbers are not personal data.
    expect(piiFindings({ epa_id: 'TXD008123168', manifest_tracking_number: '000249817ELC' })).toEqual([]);
  });

  it('no record of either account holds an SSN, bank account or routing number, test or medical record', async () => {
    const app = testApp({ SANDBOX_KEYS: KEY_TABLE });
    let scanned = 0;
    const findings: string[] = [];
    for (const key of [SECRET_KEY, SECRET_OTHER]) {
      for (const answer of await everyAnswer(app, key)) {
        const records = answer.endpoint.pathId === undefined ? (answer.json as { data: unknown[] }).data : [answer.json];
        for (const record of records) {
          scanned++;
          findings.push(...piiFindings(record).map((finding) => `${answer.path} ${finding}`));
        }
      }
    }
    expect(scanned).toBeGreaterThan(5000);
    expect(findings).toEqual([]);
  });
});
