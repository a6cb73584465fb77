// Issue #35, in-process, where the mutation run sees it: on a shared key what the sandbox holds
// belongs to the key and the client's address (createSandbox({ clientAddress })), a key of one
// holder keeps its Idempotency-Keys from any address (SANDBOX.md, "Shared keys"); a non-ASCII
// Sandbox-Simulate is quoted as the client wrote it; another API's `cursor` is answered with
// "starting_after" only where the endpoint pages. test/tenants.test.ts and test/new-user.test.ts
// show the same on a real server.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../src/index.js';

const PUBLIC = 'svc_test_sandbox_public';
const OWN = 'svc_test_team_own';
const ENDPOINT = { url: 'https://example.com/hooks', events: ['*'] };

/** One sandbox; each request names the address it comes from in a header the test alone reads. */
function strangers(keys?: string) {
  return createSandbox({
    rateLimit: 'off',
    ...(keys === undefined ? {} : { keys }),
    clientAddress: (request) => request.headers.get('X-Test-Address') ?? '127.0.0.1',
  });
}

/** A POST under the Idempotency-Key try-it-1, from `address`. */
async function postFrom(sandbox: ReturnType<typeof createSandbox>, key: string, address: string, path: string, body: object) {
  const response = await sandbox.fetch(
    new Request(`http://sandbox.test${path}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${key}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': 'try-it-1',
        'X-Test-Address': address,
      },
      body: JSON.stringify(body),
    }),
  );
  const json = (await response.json()) as { secret?: string; error?: { code: string } };
  return { status: response.status, replayed: response.headers.get('Idempotent-Replayed'), json };
}

const createEndpoint = (sandbox: ReturnType<typeof createSandbox>, key: string, address: string, body: object = ENDPOINT) =>
  postFrom(sandbox, key, address, '/v1/webhook_endpoints', body);

describe('the public key among strangers, in-process', () => {
  it('three addresses with the same key and Idempotency-Key each run as new: no replay, no 409, no secret of another', async () => {
    const sandbox = strangers();
    const first = await createEndpoint(sandbox, PUBLIC, '127.0.0.2');
    const second = await createEndpoint(sandbox, PUBLIC, '127.0.0.3', { ...ENDPOINT, url: 'https://example.com/other' });
    const third = await createEndpoint(sandbox, PUBLIC, '127.0.0.4');
    expect([first.status, second.status, third.status]).toEqual([201, 201, 201]);
    expect([first.replayed, second.replayed, third.replayed]).toEqual([null, null, null]);
    expect(third.json.secret).toMatch(/^whsec_/);
    expect(third.json.secret).not.toBe(first.json.secret);
    // From the first address again: its own stored answer.
    const again = await createEndpoint(sandbox, PUBLIC, '127.0.0.2');
    expect(again).toMatchObject({ status: 201, replayed: 'true' });
    expect(again.json.secret).toBe(first.json.secret);
    // And another body from there is its own conflict.
    expect((await createEndpoint(sandbox, PUBLIC, '127.0.0.2', { ...ENDPOINT, events: ['job.created'] })).json.error?.code).toBe(
      'idempotency_conflict',
    );
  });

  it("a self-hoster's key replays from any address (a CI job retried on another runner); one marked shared does not", async () => {
    const table = JSON.stringify([
      { key: OWN, account: 'A', scopes: '*' },
      { key: 'svc_test_team_docs', account: 'A', scopes: '*', shared: true },
    ]);
    const sandbox = strangers(table);
    const first = await createEndpoint(sandbox, OWN, '10.0.0.1');
    const elsewhere = await createEndpoint(sandbox, OWN, '10.0.0.2');
    expect(elsewhere).toMatchObject({ status: 201, replayed: 'true' });
    expect(elsewhere.json.secret).toBe(first.json.secret);
    expect((await createEndpoint(sandbox, OWN, '10.0.0.3', { ...ENDPOINT, url: 'https://example.com/other' })).status).toBe(409);

    await createEndpoint(sandbox, 'svc_test_team_docs', '10.0.0.1');
    expect(await createEndpoint(sandbox, 'svc_test_team_docs', '10.0.0.2')).toMatchObject({ status: 201, replayed: null });
  });

  // SANDBOX.md, "Shared keys": the five shipped keys are shared. Of those that can write, the
  // public key is held above; the jobs key and account B's key are held here (the read-only key
  // and the revoked one never reach an Idempotency-Key: 403 and 401 come first).
  it.each([
    ['svc_test_sandbox_jobs', '/v1/jobs/job_wR79b7gPQg1ViA/cancel', { reason: 'Client closed early' }, { reason: 'Duplicate booking' }],
    ['svc_test_sandbox_other', '/v1/webhook_endpoints', ENDPOINT, { ...ENDPOINT, url: 'https://example.com/other' }],
  ])('the shipped key %s keeps two addresses apart under one Idempotency-Key', async (key, path, body, otherBody) => {
    const sandbox = strangers();
    const post = async (address: string, sent: object) => {
      const { status, replayed } = await postFrom(sandbox, key, address, path, sent);
      return { status, replayed };
    };
    const first = await post('10.0.0.1', body);
    expect(first.status).toBeLessThan(300);
    expect(await post('10.0.0.2', otherBody)).toEqual({ status: first.status, replayed: null });
    expect(await post('10.0.0.1', body)).toEqual({ status: first.status, replayed: 'true' });
  });
});

describe('a Sandbox-Simulate past ASCII, in-process', () => {
  /** The 400's message for a Sandbox-Simulate whose UTF-8 bytes arrive one character a byte, as Node's parser hands them over. */
  async function messageFor(sent: string, asBytes = true): Promise<string> {
    const value = asBytes ? Buffer.from(sent, 'utf8').toString('latin1') : sent;
    const response = await createSandbox().fetch(
      new Request('http://sandbox.test/v1/jobs', { headers: { Authorization: `Bearer ${PUBLIC}`, 'Sandbox-Simulate': value } }),
    );
    expect(response.status).toBe(400);
    return ((await response.json()) as { error: { message: string } }).error.message;
  }

  it('quotes the value as the client wrote it in UTF-8, not as one character a byte', async () => {
    for (const sent of ['délai=10', 'é', 'api_errör_after_write']) {
      const message = await messageFor(sent);
      expect(message).toContain(`"${sent}"`);
      expect(message).not.toContain('Ã');
    }
  });

  it('leaves bytes that are not UTF-8, and plain ASCII, as they came; keeps a byte order mark', async () => {
    expect(await messageFor('\xff\xfe', false)).toContain('"\xff\xfe"');
    expect(await messageFor('meteor')).toContain('"meteor"');
    expect(await messageFor('\ufeffmeteor')).toContain('"\ufeffmeteor"');
  });

  it('leaves a value the runtime decoded already (workerd reads header bytes as UTF-8) as it came', async () => {
    // "ǃƩ" is U+01C3 U+01A9: read one character a byte, its low bytes C3 A9 would make "é".
    const decoded = 'ǃƩ';
    /** A Request as workerd hands it over: its header values are text already, past U+00FF included. */
    class DecodedRequest extends Request {
      override get headers(): Headers {
        const headers = new Headers(super.headers);
        const get = headers.get.bind(headers);
        headers.get = (name: string) => (name.toLowerCase() === 'sandbox-simulate' ? decoded : get(name));
        return headers;
      }
    }
    const request = new DecodedRequest('http://sandbox.test/v1/jobs', {
      headers: { Authorization: `Bearer ${PUBLIC}`, 'Sandbox-Simulate': 'placeholder' },
    });
    const response = await createSandbox().fetch(request);
    expect(response.status).toBe(400);
    const { message } = ((await response.json()) as { error: { message: string } }).error;
    expect(message).toContain(`"${decoded}"`);
    expect(message).not.toContain('"é"');
  });
});

describe('another API`s name for the page cursor', () => {
  const get = async (path: string) => {
    const response = await createSandbox().fetch(
      new Request(`http://sandbox.test${path}`, { headers: { Authorization: `Bearer ${PUBLIC}` } }),
    );
    return { status: response.status, message: ((await response.json()) as { error: { message: string } }).error.message };
  };

  it('on a list, ?cursor= is answered with "Did you mean starting_after?"', async () => {
    expect(await get('/v1/jobs?cursor=job_wR79b7gPQg1ViA')).toEqual({
      status: 400,
      message:
        'Received unknown parameter: cursor. Did you mean "starting_after"? Send the previous page\'s next_cursor as starting_after.',
    });
  });

  // docs/behaviour.md, "Error messages": `cursor`, `next_cursor` or `after` for starting_after;
  // `page_size` or `per_page` for limit, each with the reference's name.
  it.each([
    ['next_cursor', 'job_wR79b7gPQg1ViA', 'Did you mean "starting_after"? Send the previous page\'s next_cursor as starting_after.'],
    ['after', 'job_wR79b7gPQg1ViA', 'Did you mean "starting_after"? Send the previous page\'s next_cursor as starting_after.'],
    ['page_size', '10', 'Did you mean "limit"? limit takes 1 to 100 records a page.'],
    ['per_page', '10', 'Did you mean "limit"? limit takes 1 to 100 records a page.'],
  ])("on a list, ?%s= is answered with the reference's name", async (name, value, advice) => {
    expect(await get(`/v1/jobs?${name}=${value}`)).toEqual({ status: 400, message: `Received unknown parameter: ${name}. ${advice}` });
  });

  it('where the endpoint does not page (a record by its ID), it is only unknown', async () => {
    expect(await get('/v1/jobs/job_wR79b7gPQg1ViA?cursor=x')).toEqual({ status: 400, message: 'Received unknown parameter: cursor.' });
  });
});
