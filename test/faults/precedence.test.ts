// Which answer wins when a request asks for a fault and also fails on its own (SANDBOX.md,
// "Failures on demand"): `rate_limited` and `api_error` are failures of the service before it
// reads the request, so they answer 429 or 500 whatever the request holds (after the key check);
// the `_after_write` faults and `duplicate_event` apply only to a write that succeeds, so the
// request's own error is the answer and nothing else happens. One case per fault, in-process
// through createSandbox().fetch; test/workers/faults.test.ts runs the same table in workerd.
import { describe, expect, it } from 'vitest';
import { createSandbox, type SandboxEvent } from '../../src/index.js';

const JOB_BODY = { type: 'ci_pickup', client: 'cli_seII9pzPSgmmJJ', site: 'site_boDWBFERDT5aI9' };
/** A job of the sample data in `closed`: a cancel is a 422 (docs/sample-data.md). */
const CLOSED_JOB = 'job_P7j8555WL2sdMX';

interface Case {
  fault: string;
  path: string;
  body: unknown;
  status: number;
  code: string;
  /** Sandbox-Fault on the answer: the fault acted, or null: the request's own error won. */
  faultHeader: string | null;
}

const CASES: readonly Case[] = [
  // Before the request is read: its bad body does not matter.
  {
    fault: 'rate_limited',
    path: '/v1/jobs',
    body: { ...JOB_BODY, type: 'skip_hire' },
    status: 429,
    code: 'rate_limited',
    faultHeader: 'rate_limited',
  },
  {
    fault: 'api_error',
    path: '/v1/jobs',
    body: { ...JOB_BODY, type: 'skip_hire' },
    status: 500,
    code: 'api_error',
    faultHeader: 'api_error',
  },
  // Only on a write that succeeds: the request's own 400 or 422 is the answer.
  {
    fault: 'api_error_after_write',
    path: '/v1/jobs',
    body: { ...JOB_BODY, type: 'skip_hire' },
    status: 400,
    code: 'parameter_invalid',
    faultHeader: null,
  },
  { fault: 'reset_after_write', path: `/v1/jobs/${CLOSED_JOB}/cancel`, body: {}, status: 422, code: 'state_invalid', faultHeader: null },
  {
    fault: 'duplicate_event',
    path: '/v1/jobs',
    body: { ...JOB_BODY, type: 'skip_hire' },
    status: 400,
    code: 'parameter_invalid',
    faultHeader: null,
  },
];

describe('a fault on a request that fails on its own', () => {
  for (const { fault, path, body, status, code, faultHeader } of CASES) {
    it(`${fault}: ${status} ${code}, nothing emitted`, async () => {
      const events: SandboxEvent[] = [];
      const sandbox = createSandbox({ onEvent: (event) => events.push(event) });
      const response = await sandbox.fetch(
        new Request(`http://sandbox.test${path}`, {
          method: 'POST',
          headers: { Authorization: 'Bearer svc_test_sandbox_public', 'Content-Type': 'application/json', 'Sandbox-Simulate': fault },
          body: JSON.stringify(body),
        }),
      );
      const text = await response.text();
      expect(response.status, text).toBe(status);
      expect((JSON.parse(text) as { error: { code: string } }).error.code).toBe(code);
      expect(response.headers.get('Sandbox-Fault')).toBe(faultHeader);
      expect(events).toEqual([]);
    });
  }

  it('the key is checked first: without one, rate_limited and api_error are a 401', async () => {
    const sandbox = createSandbox();
    for (const fault of ['rate_limited', 'api_error']) {
      const response = await sandbox.fetch(
        new Request('http://sandbox.test/v1/jobs', { method: 'POST', headers: { 'Sandbox-Simulate': fault }, body: '{}' }),
      );
      expect(response.status, fault).toBe(401);
      expect(response.headers.get('Sandbox-Fault')).toBeNull();
    }
  });
});
