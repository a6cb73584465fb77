// Examples for the OpenAPI document that are real records of the running seed (the published
// one by default), so what the document shows is what the sandbox answers. Path IDs and request
// bodies are chosen so that "try it" with the examples as they stand succeeds.
import type { AccountStore, ResourceIndex } from '../data/store.js';
import type { Endpoint } from '../http/endpoint.js';
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
  if (endpoint.body !== undefined) examples.body = bodyFrom(endpoint.body, record);
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
