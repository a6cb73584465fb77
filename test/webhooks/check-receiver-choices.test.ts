// check-receiver's choices the guide states (docs/webhook-signatures.md, "check-receiver"), held
// in-process where the mutation run sees them: the forged delivery's v1 is the right one with its
// last hex digit raised by one (f becoming 0); a secret must be a whsec_ string, not something that
// only prints like one; no seed means the published seed's events.
import { afterEach, describe, expect, it } from 'vitest';
import { checkReceiver } from '../../src/index.js';
import { gradedReceiver, hmacHex, SECRET, type TestReceiver } from './graded-receiver.js';

/** 2026-03-02T17:00:00Z, the signing time pinned. */
const NOW = 1_772_470_800;
const receivers: TestReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

describe('check-receiver', () => {
  it("forges by raising the right v1's last hex digit by one, f becoming 0", async () => {
    const receiver = await gradedReceiver({ now: () => NOW });
    receivers.push(receiver);
    await checkReceiver(receiver.url, { secret: SECRET, now: NOW });
    const forged = receiver.requests[1];
    const right = hmacHex(NOW, forged?.body as string, SECRET);
    const raised = (Number.parseInt(right.slice(-1), 16) + 1) % 16;
    expect(forged?.headers['service-signature']).toBe(`t=${NOW},v1=${right.slice(0, -1)}${raised.toString(16)}`);
  });

  it('refuses a secret that is not text, even one that prints as a whsec_ secret', async () => {
    const printsLikeOne = { toString: () => 'whsec_printsLikeASecret' };
    await expect(checkReceiver('http://127.0.0.1:9/webhooks', { secret: printsLikeOne as unknown as string })).rejects.toThrow(
      /^checkReceiver: the secret must be the whsec_… signing secret your receiver verifies with .*received whsec_printsLikeASecret\.$/,
    );
  });

  it("without a seed, sends the published seed's events; with one, that seed's", async () => {
    const first = await gradedReceiver({ now: () => NOW });
    const second = await gradedReceiver({ now: () => NOW });
    receivers.push(first, second);
    const published = await checkReceiver(first.url, { secret: SECRET, now: NOW });
    const seeded = await checkReceiver(second.url, { secret: SECRET, now: NOW, seed: 'another-seed' });
    expect(published.checks[0]?.event.id).toMatch(/^evt_/);
    expect(seeded.checks[0]?.event.id).not.toBe(published.checks[0]?.event.id);
    // The published seed's events are the sample data's: the same with the seed named.
    const named = await checkReceiver(first.url, { secret: SECRET, now: NOW, seed: 'waste-ops-sandbox-v1' });
    expect(named.checks.map((check) => check.event.id)).toEqual(published.checks.map((check) => check.event.id));
  });
});
