// `npm run openapi`, as the README shows it: it writes the committed openapi.json again from the
// built sandbox (test/global-build.ts builds dist/), byte for byte. Apart from
// test/openapi-published.test.ts, which the mutation run keeps (it spawns no process).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('npm run openapi', () => {
  it('writes the committed file, byte for byte, from the built sandbox', () => {
    const folder = mkdtempSync(join(tmpdir(), 'openapi-'));
    try {
      const out = join(folder, 'openapi.json');
      const printed = execFileSync('npm', ['run', '--silent', 'openapi', '--', out], { encoding: 'utf8' });
      expect(printed).toContain(`wrote ${out}: 19 paths`);
      expect(readFileSync(out, 'utf8')).toBe(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
