// Small things a new user hit (issue #35, part 5), each answered so that it says what to do: a
// cursor parameter of another API, a mistyped key, a record created in the sandbox looked up
// later (SANDBOX.md, "Nothing kept"), a non-ASCII Sandbox-Simulate, and --log's line for an answer
// that never reached its client.
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningServer, startCli } from './cli-server.js';
import { call, PUBLIC_KEY, testApp } from './helpers.js';

const app = testApp();
/** The README's create of a job (a client and one of its sites). */
const JOB = {
  type: 'ci_pickup',
  client: 'cli_seII9pzPSgmmJJ',
  site: 'site_boDWBFERDT5aI9',
  scheduled_for: '2026-04-01',
  window: { start: '08:00', end: '12:00' },
};
const NOTHING_KEPT = (words: string, collection: string) =>
  ` If a create answered with it: the sandbox keeps nothing, so a ${words} created here is answered, then dropped, and never found later; use a sample ${words} (GET /v1/${collection} lists them).`;

describe('a cursor parameter of another API', () => {
  it.each([['cursor'], ['next_cursor'], ['after']])('?%s= is a 400 asking "Did you mean starting_after?"', async (name) => {
    const result = await call(app, `/v1/jobs?${name}=job_wR79b7gPQg1ViA`);
    expect(result.status, result.text).toBe(400);
    expect(result.json.error).toMatchObject({ code: 'parameter_invalid', param: name });
    expect(result.json.error.message).toBe(
      `Received unknown parameter: ${name}. Did you mean "starting_after"? Send the previous page's next_cursor as starting_after.`,
    );
  });

  it('?per_page= asks for limit; where there is no paging (a GET by ID), no suggestion', async () => {
    const perPage = await call(app, '/v1/jobs?per_page=10');
    expect(perPage.json.error.message).toBe(
      'Received unknown parameter: per_page. Did you mean "limit"? limit takes 1 to 100 records a page.',
    );
    const byId = await call(app, '/v1/jobs/job_wR79b7gPQg1ViA?cursor=x');
    expect(byId.status, byId.text).toBe(400);
    expect(byId.json.error.message).toBe('Received unknown parameter: cursor.');
  });
});

describe('a mistyped key', () => {
  it('answers 401 api_key_invalid saying where a working key is, as a missing key does', async () => {
    const result = await call(app, '/v1/jobs', { key: 'svc_test_sandbox_publik' });
    expect(result.status, result.text).toBe(401);
    expect(result.json.error.code).toBe('api_key_invalid');
    expect(result.json.error.message).toBe(
      "Invalid API key provided: this sandbox did not issue it; this sandbox's key svc_test_sandbox_public works.",
    );
  });

  it("under a self-hoster's table, points to /docs rather than naming the team's key to a stranger", async () => {
    const team = testApp({ SANDBOX_KEYS: JSON.stringify([{ key: 'svc_test_team_ci', account: 'A', scopes: '*' }]) });
    const result = await call(team, '/v1/jobs', { key: 'svc_test_team_cj' });
    expect(result.json.error.message).toBe(
      "Invalid API key provided: this sandbox did not issue it; this sandbox's reference page, /docs, shows a key that works.",
    );
    expect(result.text).not.toContain('svc_test_team_ci');
  });
});

describe('a record created here, looked up later (nothing is kept)', () => {
  it('GET of the ID a create answered with: 404 saying the sandbox keeps nothing', async () => {
    const created = await call(app, '/v1/jobs', { method: 'POST', body: JOB });
    expect(created.status, created.text).toBe(201);
    const id: string = created.json.id;
    for (const [method, path] of [
      ['GET', `/v1/jobs/${id}`],
      ['PATCH', `/v1/jobs/${id}`],
      ['POST', `/v1/jobs/${id}/cancel`],
    ] as const) {
      const later = await call(app, path, { method, ...(method === 'GET' ? {} : { body: {} }) });
      expect(later.status, `${method} ${path}: ${later.text}`).toBe(404);
      expect(later.json.error).toMatchObject({ code: 'resource_missing', param: 'id' });
      expect(later.json.error.message).toBe(`No such job: "${id}".${NOTHING_KEPT('job', 'jobs')}`);
    }
  });

  it('a created client named in a later create: the 404 on client says so too', async () => {
    const client = await call(app, '/v1/clients', { method: 'POST', body: { name: 'Acme Lab', kind: 'laboratory' } });
    expect(client.status, client.text).toBe(201);
    const result = await call(app, '/v1/sites', {
      method: 'POST',
      body: { client: client.json.id, name: 'Dock 4', address: { line1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701' } },
    });
    expect(result.status, result.text).toBe(404);
    expect(result.json.error.message).toBe(
      `No such client: "${client.json.id}"; client must name a client of the account your API key opens.${NOTHING_KEPT('client', 'clients')}`,
    );
  });

  it('says nothing of it for IDs no create makes: another shape, or a type no POST creates', async () => {
    const short = await call(app, '/v1/jobs/job_nope');
    expect(short.json.error.message).toBe('No such job: "job_nope".');
    const container = await call(app, '/v1/containers/cont_ZZZZZZZZZZZZZZ');
    expect(container.status, container.text).toBe(404);
    expect(container.json.error.message).toBe('No such container: "cont_ZZZZZZZZZZZZZZ".');
  });
});

describe('a non-ASCII Sandbox-Simulate', () => {
  const QUOTED = (sent: string) => `; received ${JSON.stringify(sent)}: `;
  let server: RunningServer | undefined;
  afterAll(() => server?.stop());

  it('is quoted in the 400 as sent in UTF-8, not as Latin-1 (the Node server)', async () => {
    server = await startCli(['--port', '0', '--rate-limit', 'off']);
    for (const sent of ['délai=5', 'api_érror', 'задержка', 'delay=5 🐢']) {
      const answer = await rawGet(server.origin, { 'Sandbox-Simulate': sent });
      expect(answer.status, answer.text).toBe(400);
      const error = JSON.parse(answer.text).error;
      expect(error.param).toBe('Sandbox-Simulate');
      expect(error.message).toContain(QUOTED(sent));
    }
  });

  it('Sandbox-Clock likewise', async () => {
    server ??= await startCli(['--port', '0', '--rate-limit', 'off']);
    const answer = await rawGet(server.origin, { 'Sandbox-Clock': '2026-03-02T17:00:00Z—' });
    expect(answer.status, answer.text).toBe(400);
    expect(JSON.parse(answer.text).error.message).toContain('"2026-03-02T17:00:00Z—"');
  });

  it('in-process, a value a fetch Headers holds (one character a byte) is quoted unchanged', async () => {
    const result = await call(app, '/v1/jobs', { headers: { 'Sandbox-Simulate': 'délai' } });
    expect(result.status, result.text).toBe(400);
    expect(result.json.error.message).toContain(QUOTED('délai'));
  });
});

describe('--log, for an answer that never reached its client', () => {
  const servers: { close(): void }[] = [];
  afterAll(() => {
    for (const server of servers) server.close();
  });

  it('writes 499 (client closed first) for a held answer whose client left, never 201; 444 for a reset', async () => {
    // The write's event is delivered while its answer is held (SANDBOX.md, "delay"): it tells the
    // test the request ran and its answer is being held, so the client leaves at that moment.
    let delivered: () => void = () => {};
    const eventArrived = new Promise<void>((resolve) => {
      delivered = resolve;
    });
    const receiver = createServer((incoming, outgoing) => {
      incoming.resume();
      incoming.on('end', () => {
        outgoing.end();
        delivered();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    servers.push(receiver);
    const sandbox = await startCli([
      '--port',
      '0',
      '--rate-limit',
      'off',
      '--log',
      '--webhook-url',
      `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
    ]);
    servers.push({ close: () => sandbox.stop() });

    const held = send(sandbox.origin, '/v1/jobs', JOB, { 'Sandbox-Simulate': 'delay=60000' });
    await eventArrived;
    held.outgoing.destroy();
    await held.settled;
    const lost = send(sandbox.origin, '/v1/jobs', JOB, { 'Sandbox-Simulate': 'reset_after_write' });
    await lost.settled;

    const lines = await logLines(sandbox, 2);
    expect(lines[0]).toMatch(
      /^\d{4}-\d\d-\d\dT[\d:.]+Z POST \/v1\/jobs 499 [\d.]+ms req_\w{24} client closed the connection first; its 201 answer not sent$/,
    );
    expect(lines[1]).toMatch(
      /^\S+ POST \/v1\/jobs 444 [\d.]+ms req_\w{24} connection reset by reset_after_write; its 201 answer not sent$/,
    );
    expect(sandbox.output()).not.toMatch(/POST \/v1\/jobs 201/);
  });
});

/** A GET of /v1/jobs whose header values go out as the UTF-8 bytes of the text, as curl sends them. */
function rawGet(origin: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  const url = new URL('/v1/jobs', origin);
  // Node writes a header value one byte a character: the UTF-8 bytes, each as one character.
  const bytes = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, Buffer.from(value).toString('latin1')]));
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { headers: { Authorization: `Bearer ${PUBLIC_KEY}`, ...bytes }, agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** A POST whose answer may never come: `settled` resolves once it answered, failed or was given up. */
function send(origin: string, path: string, body: unknown, headers: Record<string, string>) {
  const payload = JSON.stringify(body);
  const outgoing = request(new URL(path, origin), {
    method: 'POST',
    agent: false,
    headers: { Authorization: `Bearer ${PUBLIC_KEY}`, 'Content-Type': 'application/json', ...headers },
  });
  const settled = new Promise<void>((resolve) => {
    outgoing.on('response', (response) => {
      response.resume();
      response.on('end', resolve);
    });
    outgoing.on('error', () => resolve());
    outgoing.on('close', () => resolve());
  });
  outgoing.end(payload);
  return { outgoing, settled };
}

/** The request lines of the server's log (after its banner), once there are `count` of them. */
async function logLines(server: RunningServer, count: number): Promise<string[]> {
  const lines = () =>
    server
      .output()
      .split('\n')
      .filter((line) => /^\S+ (GET|POST) \/v1\//.test(line));
  for (let tries = 0; tries < 200 && lines().length < count; tries++) await new Promise((wait) => setTimeout(wait, 50));
  return lines();
}
