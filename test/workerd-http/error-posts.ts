// POSTs that the app answers with an error, most before it reads the body (issue #35: under
// `wrangler dev` about one in ten came back as wrangler's "503 Your worker restarted mid-request").
// Each case says what SANDBOX.md makes the answer; the suites send them over real HTTP to workerd.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'vitest';

const JOB = JSON.stringify({ type: 'ci_pickup', client: 'cli_seII9pzPSgmmJJ', site: 'site_boDWBFERDT5aI9' });
const AUTH = { Authorization: 'Bearer svc_test_sandbox_public', 'Content-Type': 'application/json' };

export interface ErrorPost {
  name: string;
  headers: Record<string, string>;
  body: string;
  status: number;
  code: string;
  param?: string;
}

/** Answered before the body is read (all but the last), then one whose body is read and refused. */
export const ERROR_POSTS: readonly ErrorPost[] = [
  { name: 'api_error', headers: { ...AUTH, 'Sandbox-Simulate': 'api_error' }, body: JOB, status: 500, code: 'api_error' },
  { name: 'rate_limited', headers: { ...AUTH, 'Sandbox-Simulate': 'rate_limited' }, body: JOB, status: 429, code: 'rate_limited' },
  { name: 'no key', headers: { 'Content-Type': 'application/json' }, body: JOB, status: 401, code: 'api_key_missing' },
  {
    name: 'a Sandbox-Simulate it cannot read',
    headers: { ...AUTH, 'Sandbox-Simulate': 'api_eror' },
    body: JOB,
    status: 400,
    code: 'parameter_invalid',
    param: 'Sandbox-Simulate',
  },
  {
    name: 'an unknown job type',
    headers: AUTH,
    body: JSON.stringify({ type: 'skip_hire', client: 'cli_seII9pzPSgmmJJ', site: 'site_boDWBFERDT5aI9' }),
    status: 400,
    code: 'parameter_invalid',
    param: 'type',
  },
];

/**
 * Sends `count` error-answered POSTs to /v1/jobs, one at a time, cycling through the cases, and
 * checks that each is the contract's JSON error: never a runtime's own answer (a text/plain 503).
 */
export async function sendErrorPosts(origin: string, count: number): Promise<void> {
  const seen: string[] = [];
  for (let i = 0; i < count; i++) {
    const post = ERROR_POSTS[i % ERROR_POSTS.length] as ErrorPost;
    const response = await fetch(`${origin}/v1/jobs`, { method: 'POST', headers: post.headers, body: post.body });
    const text = await response.text();
    seen.push(`${response.status}`);
    expect(response.status, `POST ${i + 1} (${post.name}): ${text.slice(0, 200)}`).toBe(post.status);
    expect(response.headers.get('Content-Type'), post.name).toMatch(/^application\/json/);
    const { error } = JSON.parse(text) as { error: { code: string; param?: string; request_id: string } };
    expect(error.code, post.name).toBe(post.code);
    expect(error.param, post.name).toBe(post.param);
    expect(error.request_id, post.name).toBe(response.headers.get('Request-Id'));
  }
  expect(seen).toHaveLength(count);
}

const run = promisify(execFile);

/**
 * A create under reset_after_write, read by curl: the status line and headers arrive, then the
 * connection closes before the body is whole, so curl fails (18: transfer closed with bytes left;
 * 56: a reset while receiving). Returns curl's exit code and what it printed.
 */
export async function curlReset(origin: string, idempotencyKey: string): Promise<{ code: number; status: string; stderr: string }> {
  const args = ['-sS', '-o', '/dev/null', '-w', '%{http_code}', '-X', 'POST', `${origin}/v1/jobs`, '-d', JOB];
  for (const [name, value] of Object.entries({ ...AUTH, 'Sandbox-Simulate': 'reset_after_write', 'Idempotency-Key': idempotencyKey })) {
    args.push('-H', `${name}: ${value}`);
  }
  try {
    const { stdout, stderr } = await run('curl', args);
    return { code: 0, status: stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, status: failed.stdout, stderr: failed.stderr };
  }
}

/** The same create read by Node's fetch: the head arrives, then reading the body rejects. */
export function fetchReset(origin: string, idempotencyKey: string): Promise<Response> {
  return fetch(`${origin}/v1/jobs`, {
    method: 'POST',
    headers: { ...AUTH, 'Sandbox-Simulate': 'reset_after_write', 'Idempotency-Key': idempotencyKey },
    body: JOB,
  });
}

/** The retry with the same key: the stored answer of the write that ran (SANDBOX.md, "Failures on demand"). */
export async function retryWithKey(origin: string, idempotencyKey: string): Promise<Response> {
  return fetch(`${origin}/v1/jobs`, { method: 'POST', headers: { ...AUTH, 'Idempotency-Key': idempotencyKey }, body: JOB });
}
