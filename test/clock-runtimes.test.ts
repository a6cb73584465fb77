// The pinned clock's HMAC on each runtime (src/clock/derive.ts): Node's own, where these suites
// run; the pure JavaScript one and Web Crypto's, which only the Worker (workerd without
// nodejs_compat) takes through HTTP. Node has Web Crypto too, so both are held here, in-process,
// to the published vectors; test/worker-parity.test.ts holds the deployed bundle to the same
// stored bytes over HTTP.
import { describe, expect, it } from 'vitest';
import { derivationRoot, derivationRootAsync, pureHmacSha256, type RequestMaterial, webCryptoHmac } from '../src/clock/derive.js';
import { PinnedMint } from '../src/clock/mint.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const hex = (value: Uint8Array) => Buffer.from(value).toString('hex');

/** RFC 4231, test cases 1, 2 and 6 (a key longer than SHA-256's 64-byte block is hashed first). */
const RFC_4231: { key: Uint8Array<ArrayBuffer>; data: Uint8Array<ArrayBuffer>; mac: string }[] = [
  {
    key: new Uint8Array(20).fill(0x0b),
    data: bytes('Hi There'),
    mac: 'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7',
  },
  {
    key: bytes('Jefe'),
    data: bytes('what do ya want for nothing?'),
    mac: '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
  },
  {
    key: new Uint8Array(131).fill(0xaa),
    data: bytes('Test Using Larger Than Block-Size Key - Hash Key First'),
    mac: '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54',
  },
];

const MATERIAL: Omit<RequestMaterial, 'time'> = {
  account: 'A',
  method: 'POST',
  target: '/v1/clients',
  body: { name: 'Acme Labs', kind: 'laboratory' },
  idempotencyKey: 'runtimes-1',
};

describe("the pinned clock's HMAC-SHA256 on every runtime", () => {
  it.each(RFC_4231.map((vector, index) => [index, vector] as const))('vector %i: the pure JavaScript HMAC', (_index, vector) => {
    expect(hex(pureHmacSha256(vector.key, vector.data))).toBe(vector.mac);
  });

  it.each(RFC_4231.map((vector, index) => [index, vector] as const))("vector %i: Web Crypto's HMAC", async (_index, vector) => {
    expect(hex(await webCryptoHmac(crypto.subtle, vector.key, vector.data))).toBe(vector.mac);
  });

  it("the root made before the handler runs is the one it would make on first use (Node's HMAC, 32 bytes)", async () => {
    const material = { ...MATERIAL, time: '2026-03-02T17:00:00Z' };
    const root = derivationRoot('runtimes', material);
    expect(root).toHaveLength(32);
    expect(hex(await derivationRootAsync('runtimes', material))).toBe(hex(root));
    // The root is keyed by the seed and covers the material.
    expect(hex(derivationRoot('runtimes2', material))).not.toBe(hex(root));
  });
});

describe('a pinned mint prepares its root once the request has said all it will', () => {
  const time = new Date('2026-03-02T17:00:00Z');

  it('values derive from what the request said when prepare() ran, not from what came after', async () => {
    // What the request says grows as the app reads it: here the body changes after prepare(),
    // which no request does, so that the root's moment shows.
    let body: Record<string, unknown> | null = MATERIAL.body;
    const prepared = new PinnedMint('runtimes', time, () => ({ ...MATERIAL, body }));
    await prepared.prepare();
    body = { name: 'Another', kind: 'laboratory' };
    const before = new PinnedMint('runtimes', time, () => MATERIAL);
    const after = new PinnedMint('runtimes', time, () => ({ ...MATERIAL, body: { name: 'Another', kind: 'laboratory' } }));
    const id = prepared.id('client');
    expect(id).toBe(before.id('client'));
    expect(id).not.toBe(after.id('client'));
  });

  it('a second prepare() keeps the first root', async () => {
    let body: Record<string, unknown> | null = MATERIAL.body;
    const mint = new PinnedMint('runtimes', time, () => ({ ...MATERIAL, body }));
    await mint.prepare();
    body = null;
    await mint.prepare();
    expect(mint.id('client')).toBe(new PinnedMint('runtimes', time, () => MATERIAL).id('client'));
  });
});
