// Random text (src/random-text.ts: "`length` characters of [0-9A-Za-z], uniformly random"), as
// it reaches answers: the Request-Id of every answer while the clock runs is req_ and 24 such
// characters, and so are the bodies of new record IDs and the whsec_ secrets a sandbox makes.
// Uniform means every one of the 62 characters as likely as any other: over 201,600 characters
// each comes 3,251.6 times on average, with a standard deviation of 56.6; a count more than six of
// them away fails, which a fair source does about once in ten million runs (62 characters × 2e-9),
// while a source that favours some characters by a quarter (a byte of 248 to 255 taken as a
// character rather than skipped) puts them twelve deviations away.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ANSWERS = 8_400;

describe('random text in answers', () => {
  it('Request-Ids are req_ and 24 characters, each of 0-9A-Za-z equally likely', async () => {
    const sandbox = createSandbox();
    const counts = new Map<string, number>([...ALPHABET].map((character) => [character, 0]));
    let characters = 0;
    for (let i = 0; i < ANSWERS; i++) {
      const id = (await sandbox.fetch(new Request('https://sandbox.test/health'))).headers.get('Request-Id') ?? '';
      expect(id).toMatch(/^req_[0-9A-Za-z]{24}$/);
      for (const character of id.slice(4)) counts.set(character, (counts.get(character) ?? 0) + 1);
      characters += 24;
    }
    const expected = characters / 62;
    const deviation = Math.sqrt(characters * (1 / 62) * (61 / 62));
    const far = [...counts].filter(([, count]) => Math.abs(count - expected) > 6 * deviation);
    expect(far).toEqual([]);
    expect(counts.size).toBe(62);
  });

  it("a webhook's secret made by createSandbox is whsec_ and 32 such characters, another each time", () => {
    const secrets = Array.from({ length: 3 }, () => createSandbox({ webhook: { url: 'http://127.0.0.1:4242/hooks' } }).webhook?.secret);
    for (const secret of secrets) expect(secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect(new Set(secrets).size).toBe(3);
  });
});
