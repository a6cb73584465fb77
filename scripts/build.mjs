// `npm run build`: everything dist/ holds, in order.
//   1. dist/prebuilt/: the default seed's sample data, ready to serve (scripts/prebuilt-data.mjs),
//      so no bundle runs the generator for it.
//   2. The Node bundles, split so that the generator and faker sit in a chunk of their own that
//      only another seed loads: dist/server.js (`npm start`), dist/cli.js (the published
//      command), dist/index.js (the published library), dist/chunks/*.
//   3. dist/app.js: the app without a listener, for the benchmark's heap figures.
//   4. dist/docs-assets (Swagger UI's files for /docs) and dist/THIRD_PARTY_LICENSES.md.
//
//   node scripts/build.mjs [--if-stale]   --if-stale: do nothing when dist/ is built from the
//                                          sources as they are (`npm start` uses it)
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { writeThirdPartyLicenses } from './third-party-licenses.mjs';
import { onlyEnglishZodLocale } from './zod-locales.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const STAMP = join(root, 'dist', '.build-stamp');
const OUTPUTS = [
  'dist/server.js',
  'dist/cli.js',
  'dist/index.js',
  'dist/app.js',
  'dist/prebuilt/default-seed.bin',
  'dist/docs-assets/swagger-ui-bundle.js',
];

/** Every file the build reads, by path, size and modification time: what "current" means. */
function sourcesFingerprint() {
  const hash = createHash('sha256');
  const walk = (directory) => {
    for (const entry of readdirSync(join(root, directory), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const { size, mtimeMs } = statSync(join(root, path));
        hash.update(`${path}\0${size}\0${mtimeMs}\n`);
      }
    }
  };
  for (const directory of ['src', 'fixtures']) walk(directory);
  for (const file of [
    'package.json',
    'package-lock.json',
    'scripts/build.mjs',
    'scripts/zod-locales.mjs',
    'scripts/prebuilt-data.mjs',
    'scripts/docs-assets.mjs',
  ]) {
    const { size, mtimeMs } = statSync(join(root, file));
    hash.update(`${file}\0${size}\0${mtimeMs}\n`);
  }
  return hash.digest('hex');
}

const fingerprint = sourcesFingerprint();
const ifStale = process.argv.includes('--if-stale');
if (ifStale) {
  const built = existsSync(STAMP) && readFileSync(STAMP, 'utf8') === fingerprint && OUTPUTS.every((file) => existsSync(join(root, file)));
  if (built) process.exit(0);
}
// One line, begun now and ended when the build is: `npm start` may build first, and a start that
// waits for seconds in silence looks hung.
const began = performance.now();
process.stdout.write(ifStale ? 'Building dist/ (the sources changed since the last build)… ' : 'Building dist/… ');

const node = (script) => execFileSync(process.execPath, [join(root, 'scripts', script)], { stdio: 'inherit', cwd: root });

node('prebuilt-data.mjs');

const nodeBundle = {
  bundle: true,
  plugins: [onlyEnglishZodLocale],
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  // `#prebuilt-sample-data` → dist/prebuilt/node.js (package.json "imports").
  conditions: ['sandbox-prebuilt'],
  // Some CommonJS dependencies call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
};

rmSync(join(root, 'dist', 'chunks'), { recursive: true, force: true });
const [entries] = await Promise.all([
  build({
    ...nodeBundle,
    entryPoints: { server: 'src/server.ts', cli: 'src/cli/bin.ts', index: 'src/index.ts' },
    outdir: 'dist',
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    // Every output may be the first module Node runs (dist/cli.js is the bin); a hashbang line
    // is valid at the top of any module.
    banner: { js: `#!/usr/bin/env node\n${nodeBundle.banner.js}` },
    metafile: true,
  }),
  // The app without a listener, for the benchmark's heap measurements (scripts/bench/app-host.mjs):
  // it hosts the app itself so it can report heap after gc. A virtual entry, so src/ needs no file for it.
  build({
    ...nodeBundle,
    stdin: {
      contents:
        "export { createApp } from './src/app.ts';\nexport { readConfig } from './src/config.ts';\nexport { COLLECTIONS } from './src/data/prebuilt.ts';\n",
      resolveDir: root,
      sourcefile: 'bench-app-entry.ts',
      loader: 'ts',
    },
    outfile: 'dist/app.js',
  }),
]);

node('docs-assets.mjs');
// The package has no dependencies to install (everything is in the bundles, so `npx` fetches one
// package): the licenses of what the bundles hold travel with them instead.
writeThirdPartyLicenses([entries.metafile], 'dist/THIRD_PARTY_LICENSES.md');
writeFileSync(STAMP, fingerprint);
process.stdout.write(`done in ${((performance.now() - began) / 1000).toFixed(1)} s\n`);
