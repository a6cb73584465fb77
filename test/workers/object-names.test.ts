// The Durable Objects' names (docs/workers.md): the kind, a colon and a SHA-256 digest, so neither
// a key nor a client's address is readable where Cloudflare shows names (its dashboard, its logs).
// The names are computed here from that rule (test/workers/support/object-names.ts).
import { listDurableObjectIds } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { idempotencyObjectNameOf, rateLimitObjectNameOf } from './support/object-names.js';
import { call, PUBLIC_KEY, uniqueKey } from './support/worker.js';

const ADDRESS = '198.51.100.77';
const NAME = /^(idempotency|rate-limit):[0-9a-f]{64}$/;

const idsOf = (ids: DurableObjectId[]) => ids.map((id) => id.toString());

describe("the Worker's Durable Objects are named by digest", () => {
  it('an Idempotency-Key on a shared key: by the API key, the address and the Idempotency-Key', async () => {
    const key = uniqueKey('named');
    const created = await call('/v1/clients', {
      method: 'POST',
      body: { name: 'Named', kind: 'laboratory' },
      headers: { 'Idempotency-Key': key, 'CF-Connecting-IP': ADDRESS },
    });
    expect(created.status, created.text).toBe(201);
    const name = await idempotencyObjectNameOf([PUBLIC_KEY, ADDRESS, key]);
    expect(name).toMatch(NAME);
    expect(idsOf(await listDurableObjectIds(env.IDEMPOTENCY))).toContain(env.IDEMPOTENCY.idFromName(name).toString());
  });

  it('a rate-limit bucket: by the Authorization header and the address', async () => {
    const address = '198.51.100.78';
    expect((await call('/v1/jobs?limit=1', { headers: { 'CF-Connecting-IP': address } })).status).toBe(200);
    const name = await rateLimitObjectNameOf(`Bearer ${PUBLIC_KEY}`, address);
    expect(name).toMatch(NAME);
    expect(idsOf(await listDurableObjectIds(env.RATE_LIMITS))).toContain(env.RATE_LIMITS.idFromName(name).toString());
  });
});
