// The OpenAPI 3.1 document of the sandbox, generated from the route table (src/resources/index.ts)
// and the zod schemas that validate requests and check responses: nothing here restates a
// field. What the route table does not say (headers, errors, examples) is derived in this folder.
import { OpenAPIHono } from '@hono/zod-openapi';
import type { ApiKey } from '../auth/keys.js';
import { SCOPES } from '../auth/scopes.js';
import type { AccountStore, ResourceIndex } from '../data/store.js';
import type { Endpoint } from '../http/endpoint.js';
import { IDEMPOTENCY_KEY_MAX } from '../idempotency/store.js';
import type { Collection } from '../resources/endpoints.js';
import { ENDPOINTS } from '../resources/index.js';
import { ID_PREFIXES, type ObjectType } from '../schemas/common.js';
import { DELAY_MAX_MS, FAULTS, SIMULATE_HEADER } from '../faults/simulate.js';
import { errorCasesOf } from './error-responses.js';
import { ErrorBody } from './error-schema.js';
import { errorExampleOf, examplesOf } from './examples.js';
import { registerWebhooks, WEBHOOKS_DESCRIPTION } from './webhooks.js';

type Json = Record<string, unknown>;

export const OPENAPI_VERSION = '3.1.0';

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** Headers of every response (reference, "Limits"; Request-Id repeats an error body's request_id). */
const COMMON_HEADERS = {
  'Request-Id': ref('headers', 'Request-Id'),
  'RateLimit-Policy': ref('headers', 'RateLimit-Policy'),
  'Sandbox-Fault': ref('headers', 'Sandbox-Fault'),
};

const HEADERS: Json = {
  'Request-Id': {
    description: 'The ID of the request (req_…); the same as request_id in an error body',
    schema: { type: 'string', pattern: '^req_' },
  },
  'RateLimit-Policy': {
    description: 'The rate-limit policy: requests per one-second window, per key and client address',
    schema: { type: 'string', example: '25;w=1' },
  },
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } },
  'Idempotent-Replayed': {
    description: 'true when this is the stored answer of an earlier request with the same Idempotency-Key',
    schema: { type: 'string', enum: ['true'] },
  },
  'Sandbox-Fault': {
    description:
      'Sandbox only, on the answer of a fault or a delay (Sandbox-Simulate, or a random fault of SANDBOX_FAULTS): the items in effect, as sent, comma-separated',
    schema: { type: 'string', example: 'delay=2500, api_error_after_write' },
  },
};

const FAULT_ITEM = `(?:${FAULTS.join('|')}|delay=\\d{1,5})`;
/** A fault or a delay, or one of each: the grammar of src/faults/simulate.ts (the server also bounds the delay). */
const SIMULATE_PATTERN = `^\\s*${FAULT_ITEM}\\s*(?:,\\s*${FAULT_ITEM}\\s*)?$`;

const SIMULATE_DESCRIPTION = [
  'Sandbox only: failures on demand, to test retries. One fault, a delay, or a delay and a fault, comma-separated (`delay=2500, api_error_after_write`):',
  '`rate_limited` (429 at once), `api_error` (500 at once, nothing runs),',
  '`api_error_after_write` (the write runs in full, its result is stored under its Idempotency-Key and its events are sent, then the answer is a 500),',
  '`reset_after_write` (the same, then the connection drops with no answer),',
  '`duplicate_event` (each event of the write is delivered twice),',
  `\`delay=<ms>\` (0 to ${DELAY_MAX_MS}: the request runs at once, the answer waits).`,
  '`rate_limited` and `api_error` are failures of the service before it reads the request: 429 or 500 whatever the request holds (after the key check and the rate limit).',
  'The `_after_write` faults and `duplicate_event` apply only to a write that succeeds: a request that fails on its own (400, 403, 404, 409, 422) gets that error, and nothing else happens; on a GET the `_after_write` faults act as `api_error`.',
  'Answers of a fault or a delay carry Sandbox-Fault. Anything else is a 400 parameter_invalid.',
].join(' ');

const PARAMETERS: Json = {
  'Idempotency-Key': {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Makes a retry safe: the same key with the same request replays the first answer for 24 hours; with another request it is a 409 idempotency_conflict.',
    schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX },
  },
  'Sandbox-Simulate': {
    name: SIMULATE_HEADER,
    in: 'header',
    required: false,
    description: SIMULATE_DESCRIPTION,
    // One fault, a delay, or both (in either order); a typed client sees a string. No example:
    // Swagger UI would fill it into every "try it" (/docs offers the values in a list instead).
    schema: { type: 'string', pattern: SIMULATE_PATTERN },
    'x-sandbox-values': [...FAULTS, 'delay=2500', 'delay=2500, api_error_after_write'],
  },
  'Sandbox-Clock': {
    name: 'Sandbox-Clock',
    in: 'header',
    required: false,
    description:
      'Sandbox only: pins the clock of this answer, e.g. `2026-03-02T17:00:00Z`. Timestamps a write sets are this time, and new IDs, webhook secrets and the request ID are derived from the request (account, method, path, body, Idempotency-Key, time), so the same request gets the same answer. UTC, RFC 3339 with seconds, as the API writes times; anything else is a 400 parameter_invalid.',
    // The value is in the description, not an example: Swagger UI fills an example into every
    // "try it", which would pin every answer and write made from /docs.
    schema: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$' },
  },
};

const DESCRIPTION = `The public sandbox of the Waste Operations API v1: every endpoint answered from deterministic sample data, with production's validation, scopes, idempotency and state rules. Writes are checked and answered, then dropped: nothing is kept.`;

/** How to authenticate, with a key of the configured table that works (src/auth/keys.ts, workingKey). */
function authenticationText(key: ApiKey | undefined): string {
  if (key === undefined) {
    return "No key of this sandbox's key table can be used (every key is revoked or has no scope): every request answers 401 until the table given in SANDBOX_KEYS is fixed.";
  }
  const scopes = key.scopes.size === SCOPES.length ? 'all scopes' : `scopes ${[...key.scopes].join(', ')}`;
  return `Authenticate with \`Authorization: Bearer ${key.key}\` (${scopes}, sample account ${key.account}).`;
}

/** The document without `servers`, which name the origin each request came to. */
export function buildOpenApiDocument(account: AccountStore, key: ApiKey | undefined): Json {
  const registry = new OpenAPIHono();
  registry.openAPIRegistry.register('ErrorResponse', ErrorBody);
  registry.openAPIRegistry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description: key === undefined ? 'A sandbox key (svc_test_…).' : `A sandbox key, such as ${key.key}.`,
  });
  for (const [name, header] of Object.entries(HEADERS)) registry.openAPIRegistry.registerComponent('headers', name, header as never);
  for (const [name, parameter] of Object.entries(PARAMETERS)) {
    registry.openAPIRegistry.registerComponent('parameters', name, parameter as never);
  }
  for (const endpoint of ENDPOINTS) registry.openAPIRegistry.registerPath(operationOf(endpoint, account, key) as never);
  registerWebhooks(registry.openAPIRegistry, account);
  const document = registry.getOpenAPI31Document({
    openapi: OPENAPI_VERSION,
    info: {
      title: 'Waste Operations API (sandbox)',
      version: 'v1',
      description: `${DESCRIPTION}\n\n${authenticationText(key)} Every error has the ErrorResponse shape; its \`doc_url\` leads to [/docs/errors](/docs/errors).\n\n${WEBHOOKS_DESCRIPTION}`,
    },
    security: [{ bearer: [] }],
    tags: tagsOf(ENDPOINTS),
  });
  describeListParameters(document.paths as Record<string, Record<string, { parameters?: Json[] }>>, account);
  return document as unknown as Json;
}

/**
 * The list parameters as the document gives them: starting_after is a plain string to zod (the
 * handler checks it), so its prefix is named here. Each filter's example value, that of the
 * list's first record, and limit's default are told in the description, not as `example` or
 * `default`: Swagger UI fills those into "try it", which then sends filters nobody chose.
 */
function describeListParameters(paths: Record<string, Record<string, { parameters?: Json[] }>>, account: AccountStore): void {
  for (const endpoint of ENDPOINTS) {
    if (endpoint.method !== 'GET' || endpoint.pathId !== undefined) continue;
    const collection = endpoint.path.split('/')[2] as Collection;
    const object = collection.slice(0, -1) as ObjectType;
    const first = (account[collection] as unknown as ResourceIndex<{ id: string }>).records[0] as Record<string, unknown> | undefined;
    for (const parameter of paths[endpoint.path]?.get?.parameters ?? []) {
      const schema = parameter.schema as Json | undefined;
      if (parameter.name === 'starting_after') {
        parameter.description = `The next_cursor of the previous page: the ID of a ${object} of this account`;
        parameter.schema = { type: 'string', pattern: `^${ID_PREFIXES[object]}_` };
      } else if (parameter.name === 'limit' && schema !== undefined) {
        parameter.description = `How many records a page holds, ${schema.minimum} to ${schema.maximum}; ${schema.default} when not sent`;
        delete schema.default;
      } else if (schema !== undefined) {
        delete schema.example;
        const value = first?.[parameter.name === 'scheduled_from' ? 'scheduled_for' : (parameter.name as string)];
        const about = typeof parameter.description === 'string' ? `${parameter.description}. ` : '';
        if (typeof value === 'string')
          parameter.description = `${about}E.g. \`${value}\` (the first ${object.replace('_', ' ')} of the list has it)`;
      }
    }
  }
}

function tagOf(endpoint: Endpoint): string {
  return (endpoint.path.split('/')[2] as string).replace(/_/g, ' ').replace(/^./, (letter) => letter.toUpperCase());
}

/** One tag per resource, described as the reference's "What the service does" describes it. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  Clients: 'Organizations served: household-hazardous-waste programs, commercial or industrial plants, laboratories.',
  Sites: "A client's places where work is done.",
  'Waste profiles': "A client's waste streams, with their federal and state waste codes.",
  Jobs: 'Pieces of work (collection events, commercial pickups, lab packs) with a client, site, date, crew and containers.',
  Containers: "A job's containers, from open to shipped.",
  Manifests: "Hazardous-waste manifests built from a job's containers and profiles.",
  Invoices: 'Written when a job is closed.',
  'Webhook endpoints': 'Where signed event deliveries go (the sandbox sends none).',
  Events: 'Changes to records, to catch up after downtime.',
};

function tagsOf(endpoints: readonly Endpoint[]) {
  return [...new Set(endpoints.map(tagOf))].map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name }));
}

function operationOf(endpoint: Endpoint, account: AccountStore, key: ApiKey | undefined): Json {
  const examples = examplesOf(endpoint, account);
  const parameters: unknown[] = [];
  if (endpoint.pathId !== undefined) {
    const prefix = ID_PREFIXES[endpoint.pathId];
    parameters.push({
      name: 'id',
      in: 'path',
      required: true,
      description: `ID of the ${endpoint.pathId} (prefix ${prefix}_)`,
      schema: { type: 'string', pattern: `^${prefix}_` },
      example: examples.id,
    });
  }
  if (endpoint.idempotent) parameters.push(ref('parameters', 'Idempotency-Key'));
  parameters.push(ref('parameters', 'Sandbox-Simulate'), ref('parameters', 'Sandbox-Clock'));

  const successHeaders: Json = { ...COMMON_HEADERS };
  if (endpoint.idempotent) successHeaders['Idempotent-Replayed'] = ref('headers', 'Idempotent-Replayed');
  const responses: Json = {
    [endpoint.success.status]: {
      description: endpoint.success.description,
      headers: successHeaders,
      content: { 'application/json': { schema: endpoint.success.schema(), example: examples.success } },
    },
  };
  for (const [status, cases] of errorCasesOf(endpoint)) {
    const headers: Json = { ...COMMON_HEADERS };
    if (status === 429) headers['Retry-After'] = ref('headers', 'Retry-After');
    // A 404 or 422 of an idempotent request is stored and replayed like a success: any answer past validation is.
    if (endpoint.idempotent && (status === 404 || status === 422)) headers['Idempotent-Replayed'] = ref('headers', 'Idempotent-Replayed');
    // One example per case, as the sandbox answers it (src/openapi/examples.ts).
    const errorExamples: Json = {};
    for (const { code } of cases) {
      const example = errorExampleOf(endpoint, account, key, examples, code, status);
      if (example !== undefined) errorExamples[code in errorExamples ? `${code}_${Object.keys(errorExamples).length}` : code] = example;
    }
    responses[status] = {
      description: cases.map((error) => `${error.code}: ${error.when}`).join('; '),
      headers,
      content: { 'application/json': { schema: ref('schemas', 'ErrorResponse'), examples: errorExamples } },
    };
  }

  return {
    method: endpoint.method.toLowerCase(),
    path: endpoint.path,
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    description: `Scope: \`${endpoint.scope}\`.${endpoint.idempotent ? ' Accepts Idempotency-Key.' : ''}${emitsText(endpoint)}`,
    tags: [tagOf(endpoint)],
    security: [{ bearer: [endpoint.scope] }],
    'x-scope': endpoint.scope,
    parameters,
    request: {
      ...(endpoint.query === undefined ? {} : { query: endpoint.query() }),
      ...(endpoint.body === undefined
        ? {}
        : {
            body: {
              required: false,
              content: { 'application/json': { schema: endpoint.body(), example: examples.body } },
            },
          }),
    },
    responses,
  };
}

/** Which events a success emits (docs/events-from-writes.md), where the sandbox sends them. */
function emitsText(endpoint: Endpoint): string {
  if (endpoint.emits === undefined) return '';
  const events = endpoint.emits.map(({ event, when }) => `\`${event}\` (${when})`).join(', ');
  return ` Emits ${events}: the sandbox delivers events to SANDBOX_WEBHOOK_URL when it is set.`;
}
