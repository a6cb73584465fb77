// Examples for the OpenAPI document that are real records of the running seed (the published
// one by default), so what the document shows is what the sandbox answers. Path IDs and request
// bodies are chosen so that "try it" with the examples as they stand succeeds. Each error an
// operation documents gets an example of its own, made by the code that answers it (the key
// check, the validation, the handler) for a request its summary names.
import { type ApiKey, KeyRing } from '../auth/keys.js';
import { CLOCK_HEADER } from '../http/clock.js';
import { pinnedTimeRule } from '../clock/pinned-time.js';
import type { AccountStore, ResourceIndex } from '../data/store.js';
import { ApiError, type ErrorCode, errorBody } from '../errors.js';
import { authenticate, requireScope } from '../http/auth.js';
import type { Endpoint, HandlerInput } from '../http/endpoint.js';
import { parseOrThrow } from '../http/validation.js';
import { ID_PREFIXES, type ObjectType } from '../schemas/common.js';
import { nextContainerStatus } from '../resources/containers/transitions.js';
import type { Collection } from '../resources/endpoints.js';
import { CANCELLABLE_JOB_STATUSES, EDITABLE_JOB_STATUSES } from '../resources/jobs/transitions.js';
import { EDITABLE_PROFILE_STATUSES } from '../resources/waste_profiles/transitions.js';

type SampleRecord = { id: string } & Record<string, unknown>;

export interface OperationExamples {
  /** The `{id}` of the path. */
  id?: string;
  body?: Record<string, unknown>;
  success: unknown;
}

/** Which record an operation's example uses, when not simply the first of its collection. */
const RECORD_CHOICE: Record<string, (record: SampleRecord) => boolean> = {
  updateJob: (job) => (EDITABLE_JOB_STATUSES as readonly unknown[]).includes(job.status),
  cancelJob: (job) => (CANCELLABLE_JOB_STATUSES as readonly unknown[]).includes(job.status),
  updateWasteProfile: (profile) => (EDITABLE_PROFILE_STATUSES as readonly unknown[]).includes(profile.status),
  updateContainer: (container) => nextContainerStatus(container.status as never) !== null,
};

/** Fields of a record that a request body cannot take as they are. */
const BODY_FIELD: Record<string, (value: unknown, record: SampleRecord) => unknown> = {
  // A manifest holds its facility as a party; the request names it by EPA ID.
  designated_facility: (value) => (value as { epa_id: string }).epa_id,
  // The next status is the one change a container accepts.
  status: (_value, record) => nextContainerStatus(record.status as never),
};

export function examplesOf(endpoint: Endpoint, account: AccountStore): OperationExamples {
  const collection = endpoint.path.split('/')[2] as Collection;
  const index = account[collection] as unknown as ResourceIndex<SampleRecord>;
  const choose = RECORD_CHOICE[endpoint.operationId];
  const record = (choose === undefined ? index.records[0] : index.records.find(choose)) as SampleRecord;
  const examples: OperationExamples = { success: record };
  if (endpoint.pathId !== undefined) examples.id = record.id;
  if (endpoint.body !== undefined) examples.body = bodyFrom(endpoint.body(), record);
  if (endpoint.method === 'GET' && endpoint.pathId === undefined) {
    examples.success = JSON.parse(new TextDecoder().decode(index.page(undefined, 1, undefined)));
  } else if (endpoint.method === 'DELETE') {
    examples.success = { id: record.id, object: record.object, deleted: true };
  } else if (endpoint.operationId === 'cancelJob') {
    examples.success = index.records.find((job) => job.status === 'cancelled') ?? record;
  }
  return examples;
}

/** The body fields the endpoint takes, as the record holds them (null and absent left out). */
function bodyFrom(schema: unknown, record: SampleRecord): Record<string, unknown> {
  const shape = (schema as { shape?: Record<string, unknown> }).shape ?? {};
  const body: Record<string, unknown> = {};
  for (const key of Object.keys(shape)) {
    const value = record[key];
    if (value === undefined || value === null) continue;
    const convert = BODY_FIELD[key];
    body[key] = convert === undefined ? value : convert(value, record);
  }
  return body;
}

/** An example of one documented error: the request that gets it, and the body it gets. */
export interface ErrorExample {
  summary: string;
  value: unknown;
}

const EXAMPLE_REQUEST_ID = 'req_4fK2q9XhT0aLmC7bN1pQ3sRv';
/** An ID of the right form that names no record: what "try it" with a made-up ID meets. */
const missingId = (prefix: string) => `${prefix}_doesnotexist000`;
const LIVE_KEY = 'svc_live_0123456789abcdef';
/** The error bodies that no handler or check can make here, as the sandbox words them. */
const FIXED_MESSAGES = {
  tooLarge: 'Request body is larger than 1 MiB.',
  conflict: 'This Idempotency-Key was already used with a different request (method, path or body). Use a new key for a new request.',
  rateLimited: 'Too many requests (simulated by Sandbox-Simulate: rate_limited). Retry after 1 second.',
  apiError: 'Simulated failure (Sandbox-Simulate: api_error): nothing ran. Safe to retry.',
};

function example(summary: string, error: ApiError): ErrorExample {
  return { summary, value: JSON.parse(errorBody(error, EXAMPLE_REQUEST_ID)) };
}

/** The ApiError a function throws, or undefined when it throws none (or something else). */
function thrownBy(run: () => unknown): ApiError | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
  }
  return undefined;
}

/** A mint for handlers run only to see their errors: a handler that gets this far succeeded. */
const NO_MINT = new Proxy(
  {},
  {
    get: () => () => {
      throw new Error('no error before the record is made');
    },
  },
);

/** The error the handler answers for this path ID and body, if it answers one of that code. */
function handlerError(endpoint: Endpoint, account: AccountStore, id: string, body: unknown, code: ErrorCode): ApiError | undefined {
  const input = { c: undefined, account, id, query: {}, body, now: new Date(0), mint: NO_MINT } as unknown as HandlerInput<
    unknown,
    unknown
  >;
  const error = thrownBy(() => endpoint.handle(input));
  return error?.code === code ? error : undefined;
}

/** The object type whose prefix an ID has, if it is one. */
function objectOfId(value: string): ObjectType | undefined {
  return (Object.keys(ID_PREFIXES) as ObjectType[]).find((object) => value.startsWith(`${ID_PREFIXES[object]}_`));
}

const line = (endpoint: Endpoint, id?: string) =>
  `${endpoint.method} ${id === undefined ? endpoint.path : endpoint.path.replace('{id}', id)}`;

/**
 * The example of one error case of the operation, or undefined when the sandbox's data gives no
 * request that meets it (then the document shows the schema alone).
 */
export function errorExampleOf(
  endpoint: Endpoint,
  account: AccountStore,
  key: ApiKey | undefined,
  examples: OperationExamples,
  code: ErrorCode,
  status: number,
): ErrorExample | undefined {
  const request = line(endpoint, examples.id);
  const body = examples.body ?? {};
  switch (code) {
    case 'parameter_missing': {
      const error = thrownBy(() => parseOrThrow(endpoint.body?.() as never, {}));
      return error?.code === code ? example(`${request} with the body {}`, error) : undefined;
    }
    case 'parameter_invalid': {
      if (status === 413)
        return example(`${request} with a body over 1 MiB`, new ApiError(code, { status: 413, message: FIXED_MESSAGES.tooLarge }));
      const context = endpoint.readonlyFields === undefined ? {} : { readonlyFields: endpoint.readonlyFields };
      if (endpoint.body !== undefined) {
        const error = thrownBy(() => parseOrThrow(endpoint.body?.() as never, { ...body, colour: 'green' }, context));
        if (error !== undefined) return example(`${request} with a field it does not take, colour`, error);
      }
      if (endpoint.query !== undefined) {
        const error = thrownBy(() => parseOrThrow(endpoint.query?.() as never, { limit: '0' }));
        if (error !== undefined) return example(`${request}?limit=0`, error);
      }
      const message = `Invalid ${CLOCK_HEADER}: ${pinnedTimeRule('yesterday')}.`;
      return example(`${request} with ${CLOCK_HEADER}: yesterday`, new ApiError(code, { param: CLOCK_HEADER, message }));
    }
    case 'api_key_missing':
    case 'api_key_invalid': {
      // The key table's working key is the one the messages suggest.
      const ring = new KeyRing(key === undefined ? [] : [key]);
      const header = code === 'api_key_missing' ? undefined : `Bearer ${LIVE_KEY}`;
      const error = authenticate(header, ring) as ApiError;
      return example(
        `${request} ${header === undefined ? 'with no Authorization header' : `with Authorization: Bearer ${LIVE_KEY}`}`,
        error,
      );
    }
    case 'scope_missing': {
      const error = thrownBy(() => requireScope({ key: 'svc_test_none', account: 'A', scopes: new Set(), revoked: false }, endpoint.scope));
      return error === undefined ? undefined : example(`${request} with a key that lacks ${endpoint.scope}`, error);
    }
    case 'resource_missing': {
      if (endpoint.pathId !== undefined) {
        const id = missingId(ID_PREFIXES[endpoint.pathId]);
        const error = handlerError(endpoint, account, id, body, code);
        if (error !== undefined) return example(line(endpoint, id), error);
      }
      // A body reference naming no record: each ID of the example body in turn.
      for (const [field, value] of Object.entries(body)) {
        const object = typeof value === 'string' ? objectOfId(value) : undefined;
        if (object === undefined) continue;
        const id = missingId(ID_PREFIXES[object]);
        const error = handlerError(endpoint, account, examples.id ?? '', { ...body, [field]: id }, code);
        if (error !== undefined) return example(`${request} with ${field} ${id}`, error);
      }
      return undefined;
    }
    case 'idempotency_conflict':
      return example(
        `${request} with an Idempotency-Key already sent with another body`,
        new ApiError(code, { param: 'Idempotency-Key', message: FIXED_MESSAGES.conflict }),
      );
    case 'state_invalid': {
      // The first sample record the change cannot be made to, with the example body.
      const collection = endpoint.path.split('/')[2] as Collection;
      const records = (account[collection] as unknown as ResourceIndex<SampleRecord>).records;
      if (endpoint.pathId !== undefined) {
        for (const record of records) {
          const error = handlerError(endpoint, account, record.id, body, code);
          if (error !== undefined) return example(line(endpoint, record.id), error);
        }
        return undefined;
      }
      // A create: a body reference to each record of its kind in turn (a job not yet scheduled…).
      for (const [field, value] of Object.entries(body)) {
        const object = typeof value === 'string' ? objectOfId(value) : undefined;
        if (object === undefined) continue;
        for (const record of (account[`${object}s` as Collection] as unknown as ResourceIndex<SampleRecord>).records) {
          const error = handlerError(endpoint, account, '', { ...body, [field]: record.id }, code);
          if (error !== undefined) return example(`${request} with ${field} ${record.id}`, error);
        }
      }
      return undefined;
    }
    case 'rate_limited':
      return example(`${request} with Sandbox-Simulate: rate_limited`, new ApiError(code, { message: FIXED_MESSAGES.rateLimited }));
    case 'api_error':
      return example(`${request} with Sandbox-Simulate: api_error`, new ApiError(code, { message: FIXED_MESSAGES.apiError }));
    case 'method_not_allowed':
      return undefined;
  }
}
