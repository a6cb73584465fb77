// The record schemas of /openapi.json, as generated clients and "try it" read them: each record
// and each of its parts a named component, every ID with the reference's prefix as its pattern,
// every time, date, clock time and EPA ID with an example in its form, and the reference's own
// formats (currency, manifest tracking number, webhook URL and secret) as patterns a generated
// validator can run. Each test reads a document of its own app, so no cached document stands
// between a schema and the test that reads it (the mutation run credits a schema to the tests
// that build it: test/mutate-setup.ts).
import { describe, expect, it } from 'vitest';
import { call, testApp } from './helpers.js';
import { ID_PREFIXES, type ObjectName } from './reference/resources.js';

interface Property {
  type?: string | string[];
  format?: string;
  pattern?: string;
  example?: unknown;
  description?: string;
  properties?: Record<string, Property>;
  items?: Property;
  $ref?: string;
}
type Components = Record<string, Property>;

async function components(): Promise<Components> {
  const { status, json } = await call(testApp(), '/openapi.json', { key: null });
  expect(status).toBe(200);
  return json.components.schemas;
}

/** The component each object of the reference is (its "Objects" section). */
const COMPONENT_OF: Record<ObjectName, string> = {
  client: 'Client',
  site: 'Site',
  waste_profile: 'WasteProfile',
  job: 'Job',
  container: 'Container',
  manifest: 'Manifest',
  invoice: 'Invoice',
  webhook_endpoint: 'WebhookEndpoint',
  event: 'Event',
};

/** Every string property of every component, with where it is. */
function strings(schemas: Components): [string, Property][] {
  const found: [string, Property][] = [];
  for (const [name, schema] of Object.entries(schemas)) {
    for (const [field, property] of Object.entries(schema.properties ?? {})) {
      const types = [property.type].flat();
      if (types.includes('string')) found.push([`${name}.${field}`, property]);
    }
  }
  return found;
}

const matches = (pattern: string | undefined, text: string) => pattern !== undefined && new RegExp(pattern, 'u').test(text);

describe('the components of /openapi.json', () => {
  it('name each record and each of its parts, as generated types are named', async () => {
    const names = Object.keys(await components());
    expect(names).toEqual(
      expect.arrayContaining([
        ...Object.values(COMPONENT_OF),
        'Address',
        'JobWindow',
        'CrewMember',
        'ManifestParty',
        'ManifestLine',
        'DeletedWebhookEndpoint',
        'ErrorResponse',
      ]),
    );
    expect(names).not.toContain('');
  });

  it.each(Object.entries(COMPONENT_OF))(
    '%s: its id has the prefix as pattern, an example with it and a description naming it',
    async (object, name) => {
      const prefix = ID_PREFIXES[object as ObjectName];
      const id = (await components())[name]?.properties?.id;
      expect(id).toEqual({
        type: 'string',
        pattern: `^${prefix}`,
        example: `${prefix}00000000000000`,
        description: `ID with prefix ${prefix}`,
      });
    },
  );

  it('give every reference to another record the prefix of its object', async () => {
    const schemas = await components();
    expect(schemas.Site?.properties?.client?.pattern).toBe('^cli_');
    expect(schemas.Job?.properties?.site?.pattern).toBe('^site_');
    expect(schemas.Manifest?.properties?.job?.pattern).toBe('^job_');
    expect(schemas.Invoice?.properties?.client?.pattern).toBe('^cli_');
  });

  it('show every timestamp, date and clock time with an example in its form', async () => {
    const all = strings(await components());
    const times = all.filter(([, property]) => property.format === 'date-time');
    const dates = all.filter(([, property]) => property.format === 'date');
    // Every `…_at` field of the reference is a timestamp; scheduled_for and due_date are dates.
    expect(all.filter(([at]) => at.endsWith('_at')).map(([at]) => at)).toEqual(times.map(([at]) => at));
    expect(dates.map(([at]) => at)).toEqual(expect.arrayContaining(['Job.scheduled_for', 'Invoice.due_date']));
    for (const [at, property] of times) {
      expect(property.example, at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      // SANDBOX.md: "RFC 3339 in UTC with seconds, as the API writes them": the pattern holds it.
      for (const good of ['2026-03-02T17:00:00Z', '2024-02-29T23:59:59Z'])
        expect(matches(property.pattern, good), `${at} ${good}`).toBe(true);
      for (const bad of [
        '2026-03-02T17:00:00.000Z',
        '2026-03-02T17:00:00+00:00',
        '2026-03-02T17:00Z',
        '2026-02-30T17:00:00Z',
        '2026-03-02 17:00:00Z',
      ])
        expect(matches(property.pattern, bad), `${at} ${bad}`).toBe(false);
    }
    for (const [at, property] of dates) expect(property.example, at).toMatch(/^\d{4}-\d\d-\d\d$/);
    const clock = all.filter(([at]) => at === 'JobWindow.start' || at === 'JobWindow.end');
    expect(clock).toHaveLength(2);
    for (const [at, property] of clock) {
      expect(property.example, at).toMatch(/^([01]\d|2[0-3]):[0-5]\d$/);
      // The pattern the input refuses others by: the whole value, 00:00 to 23:59.
      for (const good of ['00:00', '08:00', '23:59']) expect(matches(property.pattern, good), `${at} ${good}`).toBe(true);
      for (const bad of ['24:00', '8:00', '08:000', 'x08:00', '08:60']) expect(matches(property.pattern, bad), `${at} ${bad}`).toBe(false);
    }
  });

  it('show every EPA ID with an example of the reference form: two-letter state code, one letter, nine digits', async () => {
    const all = strings(await components()).filter(([at]) => at.endsWith('.epa_id'));
    expect(all.map(([at]) => at)).toEqual(expect.arrayContaining(['Client.epa_id', 'Site.epa_id', 'ManifestParty.epa_id']));
    for (const [at, property] of all) expect(property.example, at).toMatch(/^[A-Z]{2}[A-Z]\d{9}$/);
  });

  it("describe metadata in the reference's words", async () => {
    const schemas = await components();
    for (const name of ['Client', 'Site', 'Job']) {
      expect(schemas[name]?.properties?.metadata?.description, name).toBe(
        "Up to 20 key-value pairs of the caller's own; stored, never interpreted",
      );
    }
  });

  it("give the reference's formats as patterns: currency, tracking number, webhook URL and secret", async () => {
    const schemas = await components();
    const cases: [Property | undefined, string[], string[]][] = [
      // "Lowercase three-letter ISO code"
      [schemas.Invoice?.properties?.currency, ['usd', 'eur'], ['USD', 'usdx', 'xusd', 'us']],
      // "Nine digits then three letters"
      [
        schemas.Manifest?.properties?.manifest_tracking_number,
        ['123456789ABC'],
        ['1234567890ABC', 'X123456789ABC', '123456789AB', '12345678ABC'],
      ],
      // "HTTPS URL"
      [schemas.WebhookEndpoint?.properties?.url, ['https://example.com/hooks'], ['http://example.com/hooks', 'ftp://https://x']],
      // "Signing secret, prefix whsec_"
      [schemas.WebhookEndpoint?.properties?.secret, ['whsec_abc'], ['abc_whsec_', 'whsec']],
    ];
    for (const [property, good, bad] of cases) {
      for (const text of good) expect(matches(property?.pattern, text), `${property?.pattern} ${text}`).toBe(true);
      for (const text of bad) expect(matches(property?.pattern, text), `${property?.pattern} ${text}`).toBe(false);
    }
    expect(schemas.WebhookEndpoint?.properties?.url?.format).toBe('uri');
  });

  it('give the page size of every list as an integer of 1 to 100, 25 when not sent', async () => {
    const { json } = await call(testApp(), '/openapi.json', { key: null });
    const lists = Object.entries(json.paths as Record<string, { get?: { parameters?: { name?: string; in?: string; schema?: object }[] } }>)
      .filter(([path, item]) => !path.includes('{') && item.get !== undefined)
      .map(([path, item]) => [path, item.get?.parameters?.find((parameter) => parameter.name === 'limit')] as const);
    expect(lists).toHaveLength(9);
    for (const [path, limit] of lists)
      expect(limit, path).toMatchObject({
        in: 'query',
        required: false,
        schema: { type: 'integer', minimum: 1, maximum: 100 },
        // The reference's "Limits": 25 when not sent.
        description: 'How many records a page holds, 1 to 100; 25 when not sent',
      });
  });
});
