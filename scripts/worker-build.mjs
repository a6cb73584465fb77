// wrangler.toml's [build] command: what the Worker needs beside its sources, the default seed's
// prebuilt sample data (scripts/prebuilt-data.mjs) and Swagger UI's files (scripts/docs-assets.mjs).
// Skipped when both are built from the sources as they are: wrangler 4.86's `dev` runs the [build]
// command twice at every start (for its first bundle, then once its file watcher is ready), so the
// second run of a start finds everything current and does nothing. A change under src/ rebuilds.
//
//   node scripts/worker-build.mjs
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const STAMP = join(root, 'dist', 'prebuilt', '.worker-build-stamp');
const OUTPUTS = ['dist/prebuilt/worker.js', 'dist/prebuilt/default-seed.bin', 'dist/docs-assets/swagger-ui-bundle.js'];

/** Every file the two scripts read, by path, size and modification time. */
function sourcesFingerprint() {
  const hash = createHash('sha256');
  const add = (path) => {
    const { size, mtimeMs } = statSync(join(root, path));
    hash.update(`${path}\0${size}\0${mtimeMs}\n`);
  };
  const walk = (directory) => {
    for (const entry of readdirSync(join(root, directory), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) walk(path);
      else add(path);
    }
  };
  for (const directory of ['src', 'fixtures']) walk(directory);
  for (const file of ['package-lock.json', 'scripts/prebuilt-data.mjs', 'scripts/docs-assets.mjs', 'scripts/worker-build.mjs']) add(file);
  return hash.digest('hex');
}

const fingerprint = sourcesFingerprint();
const current = existsSync(STAMP) && readFileSync(STAMP, 'utf8') === fingerprint && OUTPUTS.every((file) => existsSync(join(root, file)));
if (current) {
  console.log('worker build: prebuilt sample data and docs assets are current');
} else {
  const started = performance.now();
  for (const script of ['prebuilt-data.mjs', 'docs-assets.mjs']) {
    execFileSync(process.execPath, [join(root, 'scripts', script)], { stdio: 'inherit', cwd: root });
  }
  writeFileSync(STAMP, fingerprint);
  console.log(`worker build: prebuilt sample data and docs assets written in ${Math.round(performance.now() - started)} ms`);
}
