// One script of requests for the pinned clock (docs/snapshot-tests.md): every create, a PATCH
// of each patchable resource, a cancel, a 400, 404, 422 and 401, three failures on demand, an
// idempotent create and its replay. With Sandbox-Clock, every answer depends only on its request, so the script's answers
// are the same bytes on two fresh apps, the built server, Miniflare and the workerd pool; they are
// kept in script.golden.json, which changes only on purpose (like test/sample-data.sha256).
// Shared by test/pinned-clock.test.ts (Node) and test/workers/pinned-clock.test.ts (workerd).

export const PINNED_TIME = '2026-03-02T17:00:00Z';

export interface ScriptStep {
  name: string;
  method: string;
  path: string;
  /** null sends no Authorization header. */
  key?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface ScriptAnswer {
  name: string;
  status: number;
  requestId: string | null;
  /** Headers the app sets, lower-case names, sorted (transport headers left out). */
  headers: Record<string, string>;
  text: string;
}

const PUBLIC = 'svc_test_sandbox_public';
const ADDRESS = { line1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701' };

/** Well-known IDs of the default seed (README "Well-known IDs", checked by readme-catalog.test.ts). */
const IDS = {
  client: 'cli_seII9pzPSgmmJJ',
  siteOfClient: 'site_boDWBFERDT5aI9',
  draftJob: 'job_EUcQtBQSE967gU',
  scheduledJob: 'job_wR79b7gPQg1ViA',
  closedJob: 'job_P7j8555WL2sdMX',
  openContainer: 'cont_cW8vawdtn51ye5',
  fullContainer: 'cont_Q3sQ79EWy5DrOP',
  draftProfile: 'prof_5FcbPpdkqytBaE',
} as const;

export const SCRIPT: readonly ScriptStep[] = [
  { name: 'create client', method: 'POST', path: '/v1/clients', body: { name: 'Snapshot Labs', kind: 'laboratory' } },
  {
    name: 'create site',
    method: 'POST',
    path: '/v1/sites',
    body: { client: IDS.client, name: 'Depot 9', address: ADDRESS },
  },
  {
    name: 'create waste profile',
    method: 'POST',
    path: '/v1/waste_profiles',
    body: { client: IDS.client, name: 'Spent solvent', waste_codes: ['F003', 'D001'] },
  },
  {
    name: 'create job',
    method: 'POST',
    path: '/v1/jobs',
    body: {
      type: 'ci_pickup',
      client: IDS.client,
      site: IDS.siteOfClient,
      scheduled_for: '2026-04-01',
      window: { start: '08:00', end: '12:00' },
    },
  },
  {
    name: 'create manifest',
    method: 'POST',
    path: '/v1/manifests',
    body: { job: IDS.scheduledJob, designated_facility: 'TXD009407121' },
  },
  {
    name: 'create webhook endpoint',
    method: 'POST',
    path: '/v1/webhook_endpoints',
    body: { url: 'https://example.com/hooks', events: ['job.created'] },
  },
  // A second secret: 32 characters take a second HMAC block whenever the first has a byte it
  // must skip (about two secrets in three); the first one's did not.
  {
    name: 'create another webhook endpoint',
    method: 'POST',
    path: '/v1/webhook_endpoints',
    body: { url: 'https://example.com/hooks/ops', events: ['invoice.paid'] },
  },
  { name: 'patch client', method: 'PATCH', path: `/v1/clients/${IDS.client}`, body: { metadata: { crm: '42' } } },
  { name: 'patch site', method: 'PATCH', path: `/v1/sites/${IDS.siteOfClient}`, body: { access_notes: 'Gate code 1234' } },
  { name: 'patch waste profile', method: 'PATCH', path: `/v1/waste_profiles/${IDS.draftProfile}`, body: { name: 'Paint thinner' } },
  {
    name: 'patch job (draft to scheduled)',
    method: 'PATCH',
    path: `/v1/jobs/${IDS.draftJob}`,
    body: { scheduled_for: '2026-04-02', window: { start: '09:00', end: '11:00' } },
  },
  { name: 'patch container (open to full)', method: 'PATCH', path: `/v1/containers/${IDS.openContainer}`, body: { status: 'full' } },
  {
    name: 'patch container (full to received)',
    method: 'PATCH',
    path: `/v1/containers/${IDS.fullContainer}`,
    body: { status: 'received' },
  },
  { name: 'cancel job', method: 'POST', path: `/v1/jobs/${IDS.scheduledJob}/cancel`, body: { reason: 'Client closed early' } },
  { name: '400', method: 'POST', path: '/v1/clients', body: { name: 'Snapshot Labs', kind: 'labratory' } },
  { name: '404', method: 'GET', path: '/v1/jobs/job_doesnotexist0000' },
  { name: '422', method: 'POST', path: `/v1/jobs/${IDS.closedJob}/cancel`, body: {} },
  { name: '401', method: 'GET', path: '/v1/jobs?limit=1', key: 'svc_test_not_issued' },
  // Failures on demand (docs/testing-retries.md) answer the same bytes everywhere too. Without an
  // Idempotency-Key, so a re-run against a shared store (workerd) is not a replay.
  {
    name: 'api_error_after_write',
    method: 'POST',
    path: '/v1/jobs',
    body: { type: 'lab_pack', client: IDS.client, site: IDS.siteOfClient },
    headers: { 'Sandbox-Simulate': 'api_error_after_write' },
  },
  {
    name: 'delay and duplicate_event',
    method: 'POST',
    path: '/v1/jobs',
    body: { type: 'lab_pack', client: IDS.client, site: IDS.siteOfClient },
    headers: { 'Sandbox-Simulate': 'delay=1, duplicate_event' },
  },
  { name: 'reset_after_write on a GET', method: 'GET', path: '/v1/jobs?limit=1', headers: { 'Sandbox-Simulate': 'reset_after_write' } },
  {
    name: 'idempotent create',
    method: 'POST',
    path: '/v1/clients',
    body: { name: 'Replay Co', kind: 'commercial_industrial' },
    headers: { 'Idempotency-Key': 'pinned-clock-script-1' },
  },
  {
    name: 'idempotent replay',
    method: 'POST',
    path: '/v1/clients',
    body: { kind: 'commercial_industrial', name: 'Replay Co' },
    headers: { 'Idempotency-Key': 'pinned-clock-script-1' },
  },
];

/** The step as a fetch Request; `pinned` false leaves Sandbox-Clock out. */
export function requestOf(origin: string, step: ScriptStep, pinned = true): Request {
  const headers = new Headers(step.headers);
  const key = step.key === undefined ? PUBLIC : step.key;
  if (key !== null) headers.set('Authorization', `Bearer ${key}`);
  if (pinned) headers.set('Sandbox-Clock', PINNED_TIME);
  if (step.body !== undefined) headers.set('Content-Type', 'application/json');
  return new Request(`${origin}${step.path}`, {
    method: step.method,
    headers,
    ...(step.body === undefined ? {} : { body: JSON.stringify(step.body) }),
  });
}

/** Headers a transport adds on its own (Miniflare names the compression it negotiated). */
const TRANSPORT_HEADERS = new Set(['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding', 'mf-content-encoding']);

export async function answerOf(name: string, response: Response): Promise<ScriptAnswer> {
  const headers: Record<string, string> = {};
  for (const [header, value] of [...response.headers].sort(([a], [b]) => a.localeCompare(b))) {
    if (!TRANSPORT_HEADERS.has(header.toLowerCase())) headers[header.toLowerCase()] = value;
  }
  return { name, status: response.status, requestId: response.headers.get('Request-Id'), headers, text: await response.text() };
}

/** Runs the script in order against one fetch handler. */
export async function runScript(
  fetch: (request: Request) => Promise<Response>,
  origin = 'http://sandbox.test',
  pinned = true,
): Promise<ScriptAnswer[]> {
  const answers: ScriptAnswer[] = [];
  for (const step of SCRIPT) answers.push(await answerOf(step.name, await fetch(requestOf(origin, step, pinned))));
  return answers;
}
