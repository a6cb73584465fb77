// PATCH /v1/containers/{id} through HTTP (reference, "Containers" and the Container transition;
// SANDBOX.md: only the immediate next status, receipt sets received_at and storage_status,
// weight_lb frozen once shipped).
import { describe, expect, it } from 'vitest';
import { Container, CONTAINER_STATUSES } from '../../src/resources/containers/schema.js';
import {
  expectError,
  expectNothingKept,
  expectStatus,
  findSample,
  invalid,
  keyWithout,
  notFound,
  NOW_TIMESTAMP,
  OTHER_KEY,
  scopeMissing,
  send,
  stateInvalid,
  unknownId,
  writesApp,
} from './helpers.js';

const app = writesApp();
const patch = (id: string, body: unknown, key?: string) => send(app, 'PATCH', `/v1/containers/${id}`, { body, ...(key ? { key } : {}) });
const containerIn = (status: string) => findSample<Container>(app, `/v1/containers?status=${status}`);

const FORWARD: [from: string, to: string][] = [
  ['open', 'full'],
  ['full', 'received'],
  ['received', 'consolidated'],
  ['consolidated', 'shipped'],
];

/** Every move that is not the immediate next one: backward, the same status, or a skip. */
const NOT_NEXT: [from: string, to: string][] = CONTAINER_STATUSES.flatMap((from, i) =>
  CONTAINER_STATUSES.filter((_, j) => j !== i + 1).map((to): [string, string] => [from, to]),
);

describe('PATCH /v1/containers/{id}: status', () => {
  it.each(FORWARD.filter(([, to]) => to !== 'received'))('%s → %s: 200 with only the status changed', async (from, to) => {
    const container = await containerIn(from);
    const result = await patch(container.id, { status: to });
    expectStatus(result, 200);
    expect(result.json).toEqual({ ...container, status: to });
    Container().parse(result.json);
  });

  it('full → received sets received_at to now and storage_status within_limit', async () => {
    const container = await containerIn('full');
    expect(container.received_at).toBeNull();
    expect(container.storage_status).toBeNull();
    const result = await patch(container.id, { status: 'received' });
    expectStatus(result, 200);
    expect(result.json).toEqual({ ...container, status: 'received', received_at: NOW_TIMESTAMP, storage_status: 'within_limit' });
    Container().parse(result.json);
  });

  it('moves past receipt keep the sample received_at and storage_status', async () => {
    const container = await containerIn('received');
    const result = await patch(container.id, { status: 'consolidated' });
    expectStatus(result, 200);
    expect(result.json.received_at).toBe(container.received_at);
    expect(result.json.storage_status).toBe(container.storage_status);
  });

  it.each(NOT_NEXT)('%s → %s is 422 state_invalid (not the immediate next status)', async (from, to) => {
    const container = await containerIn(from);
    const result = await patch(container.id, { status: to });
    expectError(result, stateInvalid(new RegExp(`is ${from}`)));
  });

  it('the message of a refused move names the status it may move to', async () => {
    const container = await containerIn('open');
    expectError(await patch(container.id, { status: 'received' }), stateInvalid(/full/));
  });

  it.each([['lost'], ['Full'], [1], [null]])('status %j is 400 parameter_invalid', async (status) => {
    const container = await containerIn('open');
    expectError(await patch(container.id, { status }), invalid('status'));
  });

  it('validation comes before the state rule: a bad weight with a backward status is 400', async () => {
    const container = await containerIn('shipped');
    expectError(await patch(container.id, { status: 'open', weight_lb: -1 }), invalid('weight_lb'));
  });
});

describe('PATCH /v1/containers/{id}: weight_lb', () => {
  it.each(['open', 'full', 'received', 'consolidated'])('records a new weight on a %s container', async (status) => {
    const container = await containerIn(status);
    const weight = container.weight_lb + 17;
    const result = await patch(container.id, { weight_lb: weight });
    expectStatus(result, 200);
    expect(result.json).toEqual({ ...container, weight_lb: weight });
    Container().parse(result.json);
  });

  it('0 is a valid weight', async () => {
    const container = await containerIn('open');
    const result = await patch(container.id, { weight_lb: 0 });
    expectStatus(result, 200);
    expect(result.json.weight_lb).toBe(0);
  });

  it('a shipped container cannot change weight: 422', async () => {
    const container = await containerIn('shipped');
    expectError(await patch(container.id, { weight_lb: container.weight_lb + 1 }), stateInvalid(/shipped/));
  });

  it('a shipped container sent its own weight is unchanged: 200', async () => {
    const container = await containerIn('shipped');
    const result = await patch(container.id, { weight_lb: container.weight_lb });
    expectStatus(result, 200);
    expect(result.json).toEqual(container);
  });

  it('status and weight together: the weight is recorded on the way to shipped', async () => {
    const container = await containerIn('consolidated');
    const result = await patch(container.id, { status: 'shipped', weight_lb: container.weight_lb + 5 });
    expectStatus(result, 200);
    expect(result.json).toEqual({ ...container, status: 'shipped', weight_lb: container.weight_lb + 5 });
  });

  it.each([[-1], [1.5], ['12'], [null], [true], [1e21], [2 ** 53]])('weight_lb %j is 400 parameter_invalid', async (weight) => {
    const container = await containerIn('open');
    expectError(await patch(container.id, { weight_lb: weight }), invalid('weight_lb'));
  });
});

describe('PATCH /v1/containers/{id}: fields, records, scope, nothing kept', () => {
  it('an empty body returns the container unchanged', async () => {
    const container = await containerIn('open');
    const result = await patch(container.id, {});
    expectStatus(result, 200);
    expect(result.json).toEqual(container);
  });

  it.each(['kind', 'job', 'profile', 'storage_status', 'received_at', 'id', 'object', 'created_at'])(
    '%s cannot be changed by PATCH: 400 naming it',
    async (field) => {
      const container = await containerIn('open');
      expectError(
        await patch(container.id, { [field]: (container as Record<string, unknown>)[field] ?? 'x' }),
        invalid(field, /cannot be changed/),
      );
    },
  );

  it('an unknown field is 400 naming it', async () => {
    const container = await containerIn('open');
    expectError(await patch(container.id, { volume_gal: 55 }), invalid('volume_gal', /unknown/));
  });

  it('a container that does not exist, or of the other account, is 404', async () => {
    expectError(await patch(unknownId('cont'), { status: 'full' }), notFound('id'));
    const other = await findSample<Container>(app, '/v1/containers', () => true, OTHER_KEY);
    expectError(await patch(other.id, { weight_lb: 1 }), notFound('id'));
    expectError(await patch('job_ZZZZZZZZZZZZZZ', { weight_lb: 1 }), notFound('id'));
  });

  it('a key without containers:write is 403, before validation and the state rule', async () => {
    const container = await containerIn('shipped');
    const key = keyWithout('containers:write');
    expectError(await patch(container.id, { status: 'open' }, key), scopeMissing);
    expectError(await patch(container.id, { weight_lb: 'heavy' }, key), scopeMissing);
  });

  it('keeps nothing: the container and the lists read as before', async () => {
    const container = await containerIn('full');
    const paths = [`/v1/containers/${container.id}`, '/v1/containers?status=full&limit=100', `/v1/containers?job=${container.job}`];
    const result = await expectNothingKept(app, paths, () => patch(container.id, { status: 'received', weight_lb: 99 }));
    expectStatus(result, 200);
    expect(result.json.status).toBe('received');
  });
});
