// POST /v1/webhook_endpoints and DELETE /v1/webhook_endpoints/{id} through HTTP (reference,
// "Webhook endpoints"; SANDBOX.md: public https URLs only, events rules, enabled on create).
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../src/resources/events/types.js';
import { DeletedWebhookEndpoint, WebhookEndpoint } from '../../src/resources/webhook_endpoints/schema.js';
import {
  expectError,
  expectNothingKept,
  expectStatus,
  findSample,
  invalid,
  keyWithout,
  missing,
  notFound,
  NOW_TIMESTAMP,
  OTHER_KEY,
  scopeMissing,
  send,
  unknownId,
  writesApp,
} from './helpers.js';

const app = writesApp();
const create = (body: unknown, key?: string) => send(app, 'POST', '/v1/webhook_endpoints', { body, ...(key ? { key } : {}) });
const remove = (id: string, key?: string) => send(app, 'DELETE', `/v1/webhook_endpoints/${id}`, key ? { key } : {});
const sampleEndpoint = () => findSample<WebhookEndpoint>(app, '/v1/webhook_endpoints');

const URL_OK = 'https://hooks.example.com/waste-ops';

describe('POST /v1/webhook_endpoints', () => {
  it('creates an enabled endpoint and shows its whsec_ secret this once', async () => {
    const result = await create({ url: URL_OK, events: ['job.created', 'job.closed'] });
    expectStatus(result, 201);
    expect(result.json).toEqual({
      id: expect.stringMatching(/^we_[0-9A-Za-z]{14}$/),
      object: 'webhook_endpoint',
      url: URL_OK,
      events: ['job.created', 'job.closed'],
      secret: expect.stringMatching(/^whsec_[0-9A-Za-z]{16,}$/),
      enabled: true,
      created_at: NOW_TIMESTAMP,
    });
    WebhookEndpoint().parse(result.json);
  });

  it('takes ["*"] for every event, and all twelve types by name', async () => {
    const all = await create({ url: URL_OK, events: ['*'] });
    expectStatus(all, 201);
    expect(all.json.events).toEqual(['*']);
    const named = await create({ url: URL_OK, events: [...EVENT_TYPES] });
    expectStatus(named, 201);
    expect(named.json.events).toEqual([...EVENT_TYPES]);
    WebhookEndpoint().parse(named.json);
  });

  it('gives each endpoint its own secret', async () => {
    const [a, b] = await Promise.all([create({ url: URL_OK, events: ['*'] }), create({ url: URL_OK, events: ['*'] })]);
    expect(a.json.secret).not.toBe(b.json.secret);
  });

  it('the listed endpoints never show a secret', async () => {
    const list = await send(app, 'GET', '/v1/webhook_endpoints?limit=100');
    expectStatus(list, 200);
    expect(list.json.data.length).toBeGreaterThan(0);
    for (const endpoint of list.json.data) expect(endpoint.secret).toBeNull();
  });

  it.each([
    ['https://example.com', 'a bare host'],
    ['https://example.com:8443/hooks?source=sandbox', 'a port and a query'],
    ['https://8.8.8.8/hook', 'a public IPv4 address'],
    ['https://[2001:4860:4860::8888]/hook', 'a public IPv6 address'],
    ['https://172.32.0.1/hook', 'an address just outside 172.16/12'],
    ['https://hooks.localhost.example.com/', 'a host that only contains "localhost"'],
  ])('accepts %s (%s)', async (url) => {
    const result = await create({ url, events: ['*'] });
    expectStatus(result, 201);
    expect(result.json.url).toBe(url);
    WebhookEndpoint().parse(result.json);
  });

  it.each([
    ['http://example.com/hook', /https/],
    ['ftp://example.com/hook', /https/],
    ['https://user:pass@example.com/hook', /credentials/],
    ['https://user@example.com/hook', /credentials/],
    ['https://localhost/hook', /localhost/],
    ['https://LOCALHOST:8443/hook', /localhost/],
    ['https://api.localhost/hook', /localhost/],
    ['https://127.0.0.1/hook', /loopback/],
    ['https://127.1.2.3/hook', /loopback/],
    ['https://10.0.0.1/hook', /private/],
    ['https://10.255.255.255/hook', /private/],
    ['https://192.168.1.10/hook', /private/],
    ['https://172.16.0.1/hook', /private/],
    ['https://172.31.255.255/hook', /private/],
    ['https://169.254.169.254/latest/meta-data', /link-local/],
    ['https://0.0.0.0/hook', /loopback|private/],
    ['https://[::1]/hook', /loopback/],
    ['https://[::]/hook', /loopback|private/],
    ['https://[fe80::1]/hook', /link-local/],
    ['https://[fd00::1]/hook', /private/],
    ['https://[fc00::1]/hook', /private/],
    ['https://[::ffff:127.0.0.1]/hook', /loopback/],
    ['https://[::ffff:10.0.0.1]/hook', /private/],
    ['https://[::127.0.0.1]/hook', /loopback/],
    ['https://2130706433/hook', /loopback/],
    ['https://0x7f000001/hook', /loopback/],
    ['https://0177.0.0.1/hook', /loopback/],
    ['https://127.1/hook', /loopback/],
    ['/webhooks', /absolute/],
    ['hooks.example.com/webhooks', /absolute/],
    ['https://', /absolute/],
    ['', /absolute/],
    ['https://intranet/hook', /public/],
    [' https://example.com/hook', /space|control/],
    ['https://example.com/hook ', /space|control/],
    ['https://exa\tmple.com/hook', /space|control/],
    ['https://example.com/ho\nok', /space|control/],
  ])('refuses %j: 400 param url', async (url, message) => {
    expectError(await create({ url, events: ['*'] }), invalid('url', message));
  });

  it.each([[42], [null], [['https://example.com']], [{ href: URL_OK }]])('a url of the wrong type (%j) is 400 param url', async (url) => {
    expectError(await create({ url, events: ['*'] }), invalid('url'));
  });

  it.each([
    ['an empty list', [], 'events'],
    ['an unknown type', ['job.deleted'], 'events[0]'],
    ['an unknown type after known ones', ['job.created', 'invoice.refunded'], 'events[1]'],
    ['a duplicate', ['job.created', 'job.closed', 'job.created'], 'events[2]'],
    ['"*" with others', ['*', 'job.created'], 'events[0]'],
    ['"*" after others', ['job.created', '*'], 'events[1]'],
    ['"*" twice', ['*', '*'], 'events[0]'],
    ['a non-string element', ['job.created', 7], 'events[1]'],
    ['a string instead of a list', '*', 'events'],
    ['null', null, 'events'],
  ])('refuses events with %s: 400 on %s', async (_case, events, param) => {
    expectError(await create({ url: URL_OK, events }), invalid(param as string));
  });

  it('names the unknown event type in the message', async () => {
    expectError(await create({ url: URL_OK, events: ['job.deleted'] }), invalid('events[0]', /job\.deleted/));
  });

  it.each(['url', 'events'])('a missing %s is 400 parameter_missing naming it', async (field) => {
    const body: Record<string, unknown> = { url: URL_OK, events: ['*'] };
    delete body[field];
    expectError(await create(body), missing(field));
  });

  it('an unknown field, or one only the server sets, is 400 naming it', async () => {
    expectError(await create({ url: URL_OK, events: ['*'], description: 'x' }), invalid('description'));
    expectError(await create({ url: URL_OK, events: ['*'], enabled: false }), invalid('enabled'));
    expectError(await create({ url: URL_OK, events: ['*'], secret: 'whsec_mine' }), invalid('secret'));
  });

  it('a key without webhooks:write is 403 scope_missing, before validation', async () => {
    const key = keyWithout('webhooks:write');
    expectError(await create({ url: URL_OK, events: ['*'] }, key), scopeMissing);
    expectError(await create({ url: 'http://localhost' }, key), scopeMissing);
  });

  it('keeps nothing: the list reads as before and the new endpoint cannot be deleted', async () => {
    const result = await expectNothingKept(app, ['/v1/webhook_endpoints', '/v1/webhook_endpoints?limit=100'], () =>
      create({ url: URL_OK, events: ['*'] }),
    );
    expectStatus(result, 201);
    expectError(await remove(result.json.id), notFound('id'));
  });
});

describe('DELETE /v1/webhook_endpoints/{id}', () => {
  it('answers id, object and deleted true for a sample endpoint', async () => {
    const endpoint = await sampleEndpoint();
    const result = await remove(endpoint.id);
    expectStatus(result, 200);
    expect(result.json).toEqual({ id: endpoint.id, object: 'webhook_endpoint', deleted: true });
    DeletedWebhookEndpoint().parse(result.json);
  });

  it('ignores a body', async () => {
    const endpoint = await sampleEndpoint();
    const result = await send(app, 'DELETE', `/v1/webhook_endpoints/${endpoint.id}`, { body: { anything: true } });
    expectStatus(result, 200);
    expect(result.json).toEqual({ id: endpoint.id, object: 'webhook_endpoint', deleted: true });
  });

  it('an endpoint that does not exist, of the other account, or with another prefix is 404', async () => {
    expectError(await remove(unknownId('we')), notFound('id'));
    const other = await findSample<WebhookEndpoint>(app, '/v1/webhook_endpoints', () => true, OTHER_KEY);
    expectError(await remove(other.id), notFound('id'));
    expectError(await remove('job_ZZZZZZZZZZZZZZ'), notFound('id'));
  });

  it('a key without webhooks:write is 403, even one with webhooks:read', async () => {
    const endpoint = await sampleEndpoint();
    expectError(await remove(endpoint.id, keyWithout('webhooks:write')), scopeMissing);
    expectError(await remove(unknownId('we'), keyWithout('webhooks:write')), scopeMissing);
  });

  it('keeps nothing: the list reads as before and the endpoint can be deleted again', async () => {
    const endpoint = await sampleEndpoint();
    const result = await expectNothingKept(app, ['/v1/webhook_endpoints', '/v1/webhook_endpoints?limit=100'], () => remove(endpoint.id));
    expectStatus(result, 200);
    expectStatus(await remove(endpoint.id), 200);
    const list = await send(app, 'GET', '/v1/webhook_endpoints?limit=100');
    expect(list.json.data.map((record: WebhookEndpoint) => record.id)).toContain(endpoint.id);
  });
});
