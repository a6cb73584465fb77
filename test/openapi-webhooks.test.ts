// Issue #36: the `webhooks` of /openapi.json (OpenAPI 3.1). One per event type of the reference
// (its "Event types" table, written here), each a `post` of the event object with that type and
// the record it carries, signed in a required Service-Signature header; and each validates the
// events the sandbox sends: every sample event `trigger` sends (GET /v1/events/{id}), and the
// events of writes. In-process; test/openapi-webhooks-delivered.test.ts checks real deliveries.
import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, type SandboxEvent } from '../src/index.js';
import { call, PUBLIC_KEY, testApp } from './helpers.js';
import { VECTORS } from './webhooks/vectors.js';

/** The reference's event types, each with the record its data.object is (staff.accepted: the job, SANDBOX.md). */
const RECORD_OF: Record<string, string> = {
  'job.created': 'Job',
  'job.scheduled': 'Job',
  'job.closed': 'Job',
  'staff.accepted': 'Job',
  'container.received': 'Container',
  'container.storage_status_changed': 'Container',
  'manifest.ready_for_signature': 'Manifest',
  'manifest.signed': 'Manifest',
  'profile.approved': 'WasteProfile',
  'profile.expiring': 'WasteProfile',
  'invoice.sent': 'Invoice',
  'invoice.paid': 'Invoice',
};
const TYPES = Object.keys(RECORD_OF);

type Json = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  required: boolean;
  schema: { type: string; pattern: string };
}
interface Webhook {
  post: {
    operationId: string;
    summary: string;
    security: unknown[];
    parameters: ({ $ref: string } | Parameter)[];
    requestBody: { required: boolean; content: { 'application/json': { schema: { $ref: string }; example: { type: string } } } };
    responses: Record<string, { description: string }>;
  };
}

let document: Json & {
  webhooks: Record<string, Webhook>;
  components: { schemas: Record<string, Json>; parameters: Record<string, Parameter> };
};
const DOCUMENT_ID = 'https://sandbox.test/openapi.json';
let ajv: Ajv2020;

// Each test reads the document of an app of its own, not one read before the tests: the mutation
// run credits what builds the document to the tests that ran it (test/mutate-setup.ts), and these
// are the tests that read the webhooks.
beforeEach(async () => {
  const result = await call(testApp(), '/openapi.json', { key: null });
  expect(result.status).toBe(200);
  document = result.json;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema(document, DOCUMENT_ID);
});

/** The validator of a webhook's body, from the document as served. */
function bodyValidator(type: string): ValidateFunction {
  return ajv.compile({ $ref: `${DOCUMENT_ID}#/webhooks/${type}/post/requestBody/content/application~1json/schema` });
}

/** The Service-Signature parameter of a webhook, its $ref followed. */
function signatureParameter(webhook: Webhook): Parameter {
  const [parameter] = webhook.post.parameters;
  if (parameter !== undefined && '$ref' in parameter) {
    return document.components.parameters[parameter.$ref.replace('#/components/parameters/', '')] as Parameter;
  }
  return parameter as Parameter;
}

describe('the webhooks of /openapi.json', () => {
  it('are the twelve event types of the reference, in its order', () => {
    expect(Object.keys(document.webhooks)).toEqual(TYPES);
  });

  it('name each event schema for generated types, and each operation', () => {
    const names = TYPES.map((type) => document.webhooks[type]?.post.requestBody.content['application/json'].schema.$ref);
    expect(names).toEqual(
      [
        'JobCreatedEvent',
        'JobScheduledEvent',
        'JobClosedEvent',
        'StaffAcceptedEvent',
        'ContainerReceivedEvent',
        'ContainerStorageStatusChangedEvent',
        'ManifestReadyForSignatureEvent',
        'ManifestSignedEvent',
        'ProfileApprovedEvent',
        'ProfileExpiringEvent',
        'InvoiceSentEvent',
        'InvoicePaidEvent',
      ].map((name) => `#/components/schemas/${name}`),
    );
    expect(document.webhooks['container.storage_status_changed']?.post.operationId).toBe('containerStorageStatusChangedWebhook');
    expect(document.webhooks['manifest.ready_for_signature']?.post.summary).toBe(
      "A manifest is complete and awaits the generator's signature",
    );
  });

  it.each(TYPES)('%s: a post of the event object with that type and its record, signed, no API key', (type) => {
    const webhook = document.webhooks[type] as Webhook;
    expect(Object.keys(webhook)).toEqual(['post']);
    expect(webhook.post.security).toEqual([]);
    expect(webhook.post.requestBody.required).toBe(true);
    const name = webhook.post.requestBody.content['application/json'].schema.$ref.replace('#/components/schemas/', '');
    const schema = document.components.schemas[name] as {
      properties: { id: Json; type: Json; object: Json; data: { properties: { object: Json } } };
      required: string[];
    };
    expect(schema.properties.type).toMatchObject({ enum: [type] });
    expect(schema.properties.object).toMatchObject({ enum: ['event'] });
    expect(schema.properties.data.properties.object).toEqual({ $ref: `#/components/schemas/${RECORD_OF[type]}` });
    expect(schema.required.sort()).toEqual(['created_at', 'data', 'id', 'object', 'type']);
    expect(schema.properties.id).toMatchObject({ type: 'string', pattern: '^evt_' });
    // Its example is a real event of that type, and valid.
    const example = webhook.post.requestBody.content['application/json'].example;
    expect(example.type).toBe(type);
    expect(bodyValidator(type)(example), JSON.stringify(bodyValidator(type).errors)).toBe(true);
    expect(Object.keys(webhook.post.responses).some((status) => status.startsWith('2'))).toBe(true);
  });

  it('require the Service-Signature header, whose pattern is the reference form t=<unix_time>,v1=<lowercase hex>', () => {
    for (const type of TYPES) {
      const parameter = signatureParameter(document.webhooks[type] as Webhook);
      expect(parameter).toMatchObject({ name: 'Service-Signature', in: 'header', required: true, schema: { type: 'string' } });
      const pattern = new RegExp(parameter.schema.pattern);
      for (const vector of VECTORS.signing) expect(vector.header).toMatch(pattern);
      const v1 = (VECTORS.signing[0]?.header ?? '').split('v1=')[1] as string;
      for (const wrong of [`v1=${v1}`, `t=1772470800`, `t=1772470800,v1=${v1.toUpperCase()}`, `t=1772470800,v1=${v1.slice(1)}`]) {
        expect(wrong).not.toMatch(pattern);
      }
    }
  });

  it('tell one type from another: a job.created carrying an invoice, or typed as another event, is invalid', async () => {
    const jobCreated = document.webhooks['job.created']?.post.requestBody.content['application/json'].example as Json;
    const invoicePaid = document.webhooks['invoice.paid']?.post.requestBody.content['application/json'].example as Json;
    expect(bodyValidator('job.created')(jobCreated)).toBe(true);
    expect(bodyValidator('job.created')({ ...jobCreated, data: invoicePaid.data })).toBe(false);
    expect(bodyValidator('job.created')({ ...jobCreated, type: 'job.closed' })).toBe(false);
    expect(bodyValidator('invoice.paid')(jobCreated)).toBe(false);
    // Only the fields of the reference, at both levels.
    expect(bodyValidator('job.created')({ ...jobCreated, extra: 1 })).toBe(false);
    expect(bodyValidator('job.created')({ ...jobCreated, data: { ...(jobCreated.data as Json), extra: 1 } })).toBe(false);
  });
});

describe('what the sandbox sends validates against its webhook', () => {
  function expectValid(event: { type: string }): string {
    const validate = bodyValidator(event.type);
    expect(validate(event), `${event.type}: ${JSON.stringify(validate.errors)}`).toBe(true);
    return event.type;
  }

  it('every sample event of every type, as trigger sends them (the first page of each type)', async () => {
    const app = testApp();
    for (const type of TYPES) {
      const list = await call(app, `/v1/events?type=${type}&limit=100`);
      expect(list.status).toBe(200);
      expect(list.json.data.length, type).toBeGreaterThan(0);
      for (const event of list.json.data as { id: string }[]) expectValid((await call(app, `/v1/events/${event.id}`)).json);
    }
  });

  it('the events of writes: job.created, job.scheduled, container.received', async () => {
    const events: SandboxEvent[] = [];
    const sandbox = createSandbox({ onEvent: (event) => events.push(event) });
    const write = (method: string, path: string, body: Json) =>
      sandbox.fetch(
        new Request(`http://sandbox.test${path}`, {
          method,
          headers: { Authorization: `Bearer ${PUBLIC_KEY}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        }),
      );
    expect((await write('POST', '/v1/jobs', { type: 'ci_pickup', client: 'cli_seII9pzPSgmmJJ', site: 'site_boDWBFERDT5aI9' })).status).toBe(
      201,
    );
    const scheduled = await write('PATCH', '/v1/jobs/job_EUcQtBQSE967gU', {
      scheduled_for: '2026-04-01',
      window: { start: '08:00', end: '12:00' },
    });
    expect(scheduled.status).toBe(200);
    expect((await write('PATCH', '/v1/containers/cont_Q3sQ79EWy5DrOP', { status: 'received' })).status).toBe(200);
    expect(events.map((event) => expectValid(JSON.parse(JSON.stringify(event))))).toEqual([
      'job.created',
      'job.scheduled',
      'container.received',
    ]);
  });
});
