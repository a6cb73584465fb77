// Issue #34: `npm install` on a fresh clone leaves package-lock.json as committed. npm rewrites the
// lock when its root entry differs from package.json (the lock's `engines` once did), so the two
// are held equal here, and an install that only resolves the lock is run on a copy of both.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

const manifestText = readFileSync('package.json', 'utf8');
const lockText = readFileSync('package-lock.json', 'utf8');
const manifest = JSON.parse(manifestText) as Record<string, unknown>;
const lock = JSON.parse(lockText) as { name: string; version: string; packages: Record<string, Record<string, unknown>> };

/** The fields of package.json that npm copies into the lock's root entry (packages[""]). */
const ROOT_FIELDS = [
  'name',
  'version',
  'license',
  'bin',
  'dependencies',
  'devDependencies',
  'optionalDependencies',
  'peerDependencies',
  'engines',
  'workspaces',
];

describe('package-lock.json', () => {
  it("has package.json's name, version, bin, dependencies and engines as its root entry", () => {
    const expected = Object.fromEntries(ROOT_FIELDS.filter((field) => field in manifest).map((field) => [field, manifest[field]]));
    expect(Object.keys(expected)).toEqual(expect.arrayContaining(['name', 'version', 'bin', 'devDependencies', 'engines']));
    expect(lock.packages['']).toEqual(expected);
    expect([lock.name, lock.version]).toEqual([manifest.name, manifest.version]);
  });

  it('is left byte for byte as committed by an npm install that resolves it', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'waste-ops-lockfile-'));
    try {
      writeFileSync(join(folder, 'package.json'), manifestText);
      writeFileSync(join(folder, 'package-lock.json'), lockText);
      // The lock alone (no node_modules), offline: everything it needs is in the lock.
      await run('npm', ['install', '--package-lock-only', '--ignore-scripts', '--offline', '--no-audit', '--no-fund'], {
        cwd: folder,
      });
      expect(readFileSync(join(folder, 'package-lock.json'), 'utf8')).toBe(lockText);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
