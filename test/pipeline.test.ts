// Issue #35, part 4: the order of checks as steps (src/pipeline), each tried on a throwaway Hono
// app through app.request, as STYLE.md's habit 4 asks. What a step answers is the reference's
// (its codes and shapes, written here); the whole app's order is test/reference/order.test.ts's.
import { Hono } from 'hono';
import { describe, expect, it, vi } from 'vitest';
import { KeyRing } from '../src/auth/keys.js';
import type { SandboxEnv } from '../src/http/env.js';
import { responder } from '../src/http/reply.js';
import { clockOf } from '../src/http/clock.js';
import { answerError } from '../src/pipeline/answer-error.js';
import { requireKey } from '../src/pipeline/authenticate.js';
import { rateLimit } from '../src/pipeline/rate-limit.js';
import { inOrder, type Step } from '../src/pipeline/step.js';
import { TokenBucketLimiter } from '../src/rate-limit/token-bucket.js';
import type { AccountStore } from '../src/data/store.js';

const respond = responder(
  '25;w=1',
  clockOf('seed', null, () => new Date('2026-03-02T17:00:00Z')),
);

/** A throwaway app: the steps, then a route that answers 200 `{"reached":true}`. */
function throwaway(...steps: Step[]) {
  const app = new Hono<SandboxEnv>();
  app.onError(answerError(respond));
  app.use('/v1/*', inOrder(...steps));
  app.get('/v1/thing', (c) => c.json({ reached: true }));
  return app;
}

const note =
  (seen: string[], name: string): Step =>
  (_c, next) => {
    seen.push(name);
    return next();
  };

describe('inOrder', () => {
  it('runs the steps in their order, then the route', async () => {
    const seen: string[] = [];
    const response = await throwaway(note(seen, 'first'), note(seen, 'second'), note(seen, 'third')).request('/v1/thing');
    expect(seen).toEqual(['first', 'second', 'third']);
    expect(await response.json()).toEqual({ reached: true });
  });

  it('stops at a step that answers, and at one that throws: the steps after it and the route never run', async () => {
    const seen: string[] = [];
    const answers: Step = () => new Response('stopped', { status: 418 });
    const answered = await throwaway(note(seen, 'before'), answers, note(seen, 'after')).request('/v1/thing');
    expect(answered.status).toBe(418);
    expect(seen).toEqual(['before']);

    const throws: Step = () => {
      throw new Error('boom');
    };
    // A real fault is logged for the operator; here it is expected.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const thrown = await throwaway(throws, note(seen, 'never')).request('/v1/thing');
    // Anything but an ApiError is the reference's 500 api_error, which says a retry is safe.
    expect(thrown.status).toBe(500);
    const body = (await thrown.json()) as { error: { type: string; code: string; message: string } };
    expect(body.error).toMatchObject({ type: 'api_error', code: 'api_error' });
    expect(body.error.message).toContain('Idempotency-Key');
    expect(seen).toEqual(['before']);
    expect(logged).toHaveBeenCalledOnce();
    logged.mockRestore();
  });

  it('lets a step of an endpoint wrap the rest: it sees the answer the later steps made, and may change it', async () => {
    const wrap: Step = async (_c, next) => {
      const inner = await next();
      return new Response(`wrapped ${await inner?.text()}`, { status: 203 });
    };
    const answer: Step = (c) => c.json({ reached: true });
    const app = new Hono<SandboxEnv>();
    app.get('/v1/thing', inOrder(wrap, answer));
    const response = await app.request('/v1/thing');
    expect(response.status).toBe(203);
    expect(await response.text()).toBe('wrapped {"reached":true}');
  });

  it('waits for a step that is async before the next one runs', async () => {
    const seen: string[] = [];
    const slow: Step = async (_c, next) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      seen.push('slow');
      return next();
    };
    await throwaway(slow, note(seen, 'after')).request('/v1/thing');
    expect(seen).toEqual(['slow', 'after']);
  });
});

describe('the steps on a throwaway app', () => {
  const keys = new KeyRing([
    { key: 'svc_test_step_all', account: 'A', scopes: new Set(['jobs:read']), revoked: false },
    { key: 'svc_test_step_revoked', account: 'A', scopes: new Set(['jobs:read']), revoked: true },
  ]);
  const account = {} as AccountStore;

  it('requireKey: no key is 401 api_key_missing, a revoked or unknown one 401 api_key_invalid, a good one goes on', async () => {
    const app = throwaway(requireKey(keys, () => account, respond));
    const missing = await app.request('/v1/thing');
    expect(missing.status).toBe(401);
    expect(((await missing.json()) as { error: { code: string; type: string } }).error).toMatchObject({
      code: 'api_key_missing',
      type: 'authentication_error',
    });
    for (const key of ['svc_test_step_revoked', 'svc_test_nobody']) {
      const refused = await app.request('/v1/thing', { headers: { Authorization: `Bearer ${key}` } });
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('api_key_invalid');
    }
    const good = await app.request('/v1/thing', { headers: { Authorization: 'Bearer svc_test_step_all' } });
    expect(good.status).toBe(200);
  });

  it('rateLimit: over the limit per key and address is 429 rate_limited with Retry-After, before the key is looked at', async () => {
    const app = throwaway(
      rateLimit(new TokenBucketLimiter({ perSecond: 2 }), () => '127.0.0.9'),
      requireKey(keys, () => account, respond),
    );
    const statuses: number[] = [];
    const answers: Response[] = [];
    for (let i = 0; i < 3; i++) answers.push(await app.request('/v1/thing'));
    statuses.push(...answers.map((answer) => answer.status));
    const last = answers[2] as Response;
    // The first two reach the key check (no key: 401); the third is over 2 a second.
    expect(statuses).toEqual([401, 401, 429]);
    expect(last.headers.get('Retry-After')).toBe('1');
    expect(((await last.json()) as { error: { code: string; type: string } }).error).toMatchObject({
      code: 'rate_limited',
      type: 'rate_limit_error',
    });
  });
});
