// 405 and its Allow header, word for word (reference, last line of "Endpoints"; docs/behaviour.md,
// "Order of checks"): the methods a known path answers come from src/http/endpoint.ts's
// PathMatcher, which is built once per app. Each test builds its own app, so that the matcher's
// construction runs inside the test that holds it (a module-level app would credit it only to
// the first test that ran). Also pins the responder's Request-Id on a 405: the same as the body's
// request_id, and derived (the same for the same request) when the clock is pinned
// (docs/snapshot-tests.md), and the path a 404 or 405 repeats, cut after 200 characters. Expected
// texts are written out here, never taken from src/.
import { describe, expect, it } from 'vitest';
import { call, testApp } from '../helpers.js';

/** Sandbox-Clock, as docs/snapshot-tests.md writes it. */
const PINNED = '2026-03-02T17:00:00Z';

/** A 405 exactly: status, the whole error body, and Allow. */
async function expectMethodNotAllowed(method: string, path: string, allow: string): Promise<void> {
  const app = testApp();
  const result = await call(app, path, { method });
  expect(result.status, result.text).toBe(405);
  expect(result.json).toEqual({
    error: {
      type: 'invalid_request_error',
      code: 'method_not_allowed',
      message: `${method} is not allowed on ${path}. Allowed: ${allow}.`,
      doc_url: '/docs/errors#method_not_allowed',
      request_id: result.headers.get('Request-Id'),
    },
  });
  expect(result.headers.get('Allow')).toBe(allow);
}

describe('405 on a collection path (no {id})', () => {
  it.each([
    ['PUT', '/v1/jobs', 'GET, POST'],
    ['DELETE', '/v1/clients', 'GET, POST'],
    ['POST', '/v1/invoices', 'GET'],
    ['PATCH', '/v1/events', 'GET'],
    ['DELETE', '/v1/webhook_endpoints', 'GET, POST'],
  ])('%s %s: 405, Allow: %s, and only the methods of the reference', async (method, path, allow) => {
    await expectMethodNotAllowed(method, path, allow);
  });
});

describe('405 on a path with {id}: any one segment stands for it', () => {
  it.each([
    ['DELETE', '/v1/jobs/job_ZZZZZZZZZZZZZZ', 'GET, PATCH'],
    ['POST', '/v1/clients/cli_ZZZZZZZZZZZZZZ', 'GET, PATCH'],
    ['GET', '/v1/jobs/job_ZZZZZZZZZZZZZZ/cancel', 'POST'],
    ['PATCH', '/v1/jobs/anything-at-all/cancel', 'POST'],
    ['GET', '/v1/webhook_endpoints/we_ZZZZZZZZZZZZZZ', 'DELETE'],
    ['PATCH', '/v1/manifests/man_ZZZZZZZZZZZZZZ', 'GET'],
    ['POST', '/v1/containers/x', 'GET, PATCH'],
  ])('%s %s: 405, Allow: %s', async (method, path, allow) => {
    await expectMethodNotAllowed(method, path, allow);
  });

  it('an {id} is one segment only: two segments where one is expected is an unknown path, 404', async () => {
    const app = testApp();
    const result = await call(app, '/v1/jobs/a/b', { method: 'DELETE' });
    expect(result.status, result.text).toBe(404);
    expect(result.json.error.code).toBe('resource_missing');
    expect(result.json.error.message).toBe('Unrecognized request URL (DELETE /v1/jobs/a/b).');
    expect(result.headers.get('Allow')).toBeNull();
  });
});

describe('a long path in the message of a 404 or 405', () => {
  // A URL may be kilobytes long: a message repeats the path whole up to 200 characters, and
  // beyond that its first 200 and an ellipsis.
  const unknown200 = `/v1/${'a'.repeat(196)}`;
  const known200 = `/v1/jobs/${'x'.repeat(191)}`;

  it('whole at 200 characters', async () => {
    expect([unknown200.length, known200.length]).toEqual([200, 200]);
    const app = testApp();
    const missing = await call(app, unknown200);
    expect(missing.status, missing.text).toBe(404);
    expect(missing.json.error.message).toBe(`Unrecognized request URL (GET ${unknown200}).`);
    const refused = await call(app, known200, { method: 'PUT' });
    expect(refused.status, refused.text).toBe(405);
    expect(refused.json.error.message).toBe(`PUT is not allowed on ${known200}. Allowed: GET, PATCH.`);
  });

  it('cut after 200 characters, with an ellipsis', async () => {
    const app = testApp();
    const missing = await call(app, `${unknown200}b`);
    expect(missing.status, missing.text).toBe(404);
    expect(missing.json.error.message).toBe(`Unrecognized request URL (GET ${unknown200}…).`);
    const refused = await call(app, `${known200}yz`, { method: 'PUT' });
    expect(refused.status, refused.text).toBe(405);
    expect(refused.json.error.message).toBe(`PUT is not allowed on ${known200}…. Allowed: GET, PATCH.`);
  });
});

describe('CORS preflight names the methods of the path', () => {
  it.each([
    ['/v1/jobs', 'GET, POST'],
    ['/v1/jobs/job_ZZZZZZZZZZZZZZ', 'GET, PATCH'],
    ['/v1/jobs/job_ZZZZZZZZZZZZZZ/cancel', 'POST'],
    ['/v1/invoices/inv_ZZZZZZZZZZZZZZ', 'GET'],
  ])('OPTIONS %s: Access-Control-Allow-Methods %s', async (path, methods) => {
    const app = testApp();
    const response = await app.request(path, { method: 'OPTIONS', headers: { Origin: 'https://app.example.com' } });
    expect(response.status).toBe(204);
    expect(response.headers.get('Access-Control-Allow-Methods')).toBe(methods);
  });
});

describe('the Request-Id of a 405', () => {
  it('is the body request_id; with the clock pinned, the same request gets the same ID', async () => {
    const app = testApp();
    const send = () => call(app, '/v1/jobs/job_ZZZZZZZZZZZZZZ', { method: 'DELETE', headers: { 'Sandbox-Clock': PINNED } });
    const first = await send();
    const second = await send();
    expect(first.status, first.text).toBe(405);
    expect(second.status, second.text).toBe(405);
    const id = first.headers.get('Request-Id');
    expect(id).toMatch(/^req_[0-9A-Za-z]{24}$/);
    expect(first.json.error.request_id).toBe(id);
    expect(second.headers.get('Request-Id')).toBe(id);
    expect(second.json.error.request_id).toBe(id);
  });

  it('without a pinned clock, two identical requests get two IDs', async () => {
    const app = testApp();
    const first = await call(app, '/v1/jobs', { method: 'PUT' });
    const second = await call(app, '/v1/jobs', { method: 'PUT' });
    expect(first.status, first.text).toBe(405);
    expect(first.json.error.request_id).toBe(first.headers.get('Request-Id'));
    expect(second.json.error.request_id).toBe(second.headers.get('Request-Id'));
    expect(second.headers.get('Request-Id')).not.toBe(first.headers.get('Request-Id'));
  });
});
