// The four benchmarked requests, and the exact responses the sandbox gives to them. The bench
// and test/bench-smoke.test.ts both use this, with `send` over HTTP or through app.request.

export const PUBLIC_KEY = 'svc_test_sandbox_public';
const AUTH = { Authorization: `Bearer ${PUBLIC_KEY}` };

/** Targets (issue #24): sandbox req/s as a share of the bare baseline's; `read`s also get the p99 limit. */
export const TARGETS = {
  list: { ratio: 0.9, read: true },
  get: { ratio: 0.9, read: true },
  error: { ratio: 0.9, read: true },
  create: { ratio: 0.75, read: false },
};
/** A read's p99 may be at most this times the baseline's p99 of the same run, plus the allowance. */
export const P99_RATIO_LIMIT = 1.25;
export const P99_ALLOWANCE_MS = 1;
export const p99Limit = (baselineP99) => baselineP99 * P99_RATIO_LIMIT + P99_ALLOWANCE_MS;

/** A date a month ahead: a plausible booking whatever day the bench runs. */
function dateAhead(days) {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

async function firstRecord(send, path) {
  const response = await send({ method: 'GET', path, headers: AUTH });
  const text = Buffer.from(response.body).toString('utf8');
  if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${text}`);
  const record = JSON.parse(text).data?.[0];
  if (!record) throw new Error(`GET ${path} listed no record to benchmark with`);
  return record;
}

/** The body of POST /v1/jobs: a client's own site, a date and a window, so the job is `scheduled`. */
export function createJobBody(site) {
  return JSON.stringify({
    type: 'ci_pickup',
    client: site.client,
    site: site.id,
    scheduled_for: dateAhead(30),
    window: { start: '08:00', end: '12:00' },
  });
}

/**
 * The scenarios with the sandbox's answer to each (status, content type, body bytes): the
 * baseline serves exactly these. Throws when the sandbox does not give the expected status,
 * since figures for the wrong response would mean nothing.
 */
export async function captureScenarios(send) {
  const container = await firstRecord(send, '/v1/containers?limit=1');
  const site = await firstRecord(send, '/v1/sites?limit=1');
  const scenarios = [
    { name: 'list', method: 'GET', path: '/v1/jobs?limit=100', headers: AUTH, expect: 200 },
    { name: 'get', method: 'GET', path: `/v1/containers/${container.id}`, label: 'GET /v1/containers/{id}', headers: AUTH, expect: 200 },
    { name: 'error', method: 'GET', path: '/v1/jobs', headers: {}, expect: 401 },
    {
      name: 'create',
      method: 'POST',
      path: '/v1/jobs',
      headers: { ...AUTH, 'Content-Type': 'application/json' },
      body: createJobBody(site),
      expect: 201,
    },
  ];
  for (const scenario of scenarios) {
    const { status, contentType, headers, body } = await send(scenario);
    if (status !== scenario.expect) {
      throw new Error(
        `${scenario.method} ${scenario.path} answered ${status}, not ${scenario.expect}: ${Buffer.from(body).toString('utf8')}`,
      );
    }
    scenario.response = { status, contentType, headers: apiHeaders(headers), body: Buffer.from(body) };
  }
  return scenarios;
}

/** Headers Node writes itself for any server: the baseline gets them from its own stack. */
const TRANSPORT_HEADERS = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

/**
 * The API's own headers of an answer (Request-Id, RateLimit-Policy, Allow…), which the baseline
 * sends too: "the same bytes" on the wire, so the load generator parses the same response from
 * both and the ratio measures the server alone.
 */
function apiHeaders(headers = {}) {
  const kept = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!TRANSPORT_HEADERS.has(name.toLowerCase()) && typeof value === 'string') kept[name] = value;
  }
  return kept;
}

/** Why two answers differ, or null when status, content type, API headers and bytes are the same. */
export function responseDifference(expected, actual) {
  if (actual.status !== expected.status) return `status ${actual.status}, expected ${expected.status}`;
  if (actual.contentType !== expected.contentType) return `content-type ${actual.contentType}, expected ${expected.contentType}`;
  if (!Buffer.from(actual.body).equals(expected.body))
    return `body of ${actual.body.length} bytes differs from the sandbox's ${expected.body.length}`;
  const headers = JSON.stringify(apiHeaders(actual.headers));
  if (headers !== JSON.stringify(expected.headers)) return `headers ${headers}, expected ${JSON.stringify(expected.headers)}`;
  return null;
}
