// wrangler.toml's [build] command: the Worker as wrangler uploads it (`no_bundle`), in
// dist/worker-bundle/: src/worker.ts bundled by esbuild like the Node build, with zod's English
// locale only and code splitting, so that what only another seed needs (faker and the generator)
// and the OpenAPI document are modules of their own, compiled when first imported rather than by
// every new isolate; beside it the default seed's prebuilt sample data
// (scripts/prebuilt-data.mjs) and Swagger UI's files (scripts/docs-assets.mjs). Skipped when all
// are built from the sources as they are: wrangler 4.86's `dev` runs the [build] command twice at
// every start (for its first bundle, then once its file watcher is ready), so the second run of a
// start finds everything current and does nothing. A change under src/ rebuilds.
//
//   node scripts/worker-build.mjs
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { onlyEnglishZodLocale } from './zod-locales.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const STAMP = join(root, 'dist', 'prebuilt', '.worker-build-stamp');
/** Where the bundle goes, wrangler.toml's `main` among its modules. */
const BUNDLE_DIR = 'dist/worker-bundle';
const OUTPUTS = [`${BUNDLE_DIR}/sandbox-worker.js`, 'dist/prebuilt/default-seed.bin', 'dist/docs-assets/swagger-ui-bundle.js'];

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
  for (const file of [
    'package-lock.json',
    'scripts/prebuilt-data.mjs',
    'scripts/docs-assets.mjs',
    'scripts/zod-locales.mjs',
    'scripts/worker-build.mjs',
  ]) {
    add(file);
  }
  return hash.digest('hex');
}

const fingerprint = sourcesFingerprint();
const current = existsSync(STAMP) && readFileSync(STAMP, 'utf8') === fingerprint && OUTPUTS.every((file) => existsSync(join(root, file)));
if (current) {
  console.log('worker build: prebuilt sample data, docs assets and the Worker bundle are current');
} else {
  const started = performance.now();
  for (const script of ['prebuilt-data.mjs', 'docs-assets.mjs']) {
    execFileSync(process.execPath, [join(root, 'scripts', script)], { stdio: 'inherit', cwd: root });
  }
  await bundleWorker();
  writeFileSync(STAMP, fingerprint);
  console.log(
    `worker build: prebuilt sample data, docs assets and the Worker bundle written in ${Math.round(performance.now() - started)} ms`,
  );
}

/**
 * src/worker.ts as wrangler would bundle it (its conditions and main fields for workerd, ES
 * modules), in modules that wrangler uploads as they are (`find_additional_modules`): the prebuilt
 * data's bytes as a Data module beside them (`*.bin`), and every dynamic import a module of its own.
 */
async function bundleWorker() {
  const outdir = join(root, BUNDLE_DIR);
  rmSync(outdir, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: { 'sandbox-worker': 'src/worker.ts' },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2024',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    external: ['cloudflare:*'],
    plugins: [onlyEnglishZodLocale],
    // The sample data's bytes, copied beside the modules under their own name, imported as they are.
    loader: { '.bin': 'copy' },
    // One prefix for every module, which wrangler.toml's rule for the bundle's modules names: a
    // rule for every *.js would also take the dependencies' files in the workerd test pool.
    assetNames: 'sandbox-[name]-[hash]',
    chunkNames: 'sandbox-[name]-[hash]',
    // Minified: a new isolate compiles the script it imports at start, and the first request the
    // functions it calls, each from its source text; 0.84 MB of it became 0.49 MB, and CPU to
    // ready fell by 5-10 ms of 110-130 (docs/workers.md).
    // Names are kept, so a stack in the logs names its functions, and the source map maps it back
    // (wrangler.toml: upload_source_maps).
    minify: true,
    keepNames: true,
    sourcemap: true,
    logLevel: 'warning',
  });
}
