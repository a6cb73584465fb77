// Writes dist/prebuilt/: the default seed's sample data in the form the store serves
// (src/data/prebuilt.ts), which the Node bundles (node.js, reading default-seed.bin) and the
// Worker (worker.js, importing it as a Data module) import as `#prebuilt-sample-data`
// (package.json "imports") instead of running the generator. Run by `npm run build`, by
// wrangler's [build] and by the workerd tests' setup.
//
//   node scripts/prebuilt-data.mjs [--out DIRECTORY]
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const { values } = parseArgs({ options: { out: { type: 'string' } } });
const directory = values.out ?? join(root, 'dist', 'prebuilt');

// The generator is TypeScript: bundle the writer to a temporary module, run it, remove it.
const writer = join(directory, `.writer-${process.pid}.mjs`);
mkdirSync(directory, { recursive: true });
await build({
  entryPoints: [join(root, 'src/data/prebuilt/write.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile: writer,
  logLevel: 'warning',
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
});
try {
  const { prebuiltFiles, DATA_FILE } = await import(pathToFileURL(writer).href);
  const helpers = relative(directory, join(root, 'src', 'data', 'prebuilt.ts'))
    .split(sep)
    .join('/');
  const files = prebuiltFiles(helpers.startsWith('.') ? helpers : `./${helpers}`);
  writeIfChanged(join(directory, 'node.js'), files.nodeModule);
  writeIfChanged(join(directory, DATA_FILE), files.data);
  writeIfChanged(join(directory, 'worker.js'), files.workerModule);
} finally {
  rmSync(writer, { force: true });
}

/**
 * Rewritten only when changed, and then replaced whole (written beside, then renamed over), so a
 * Worker or server reading the file is never handed half of it, and a server that holds it open
 * (dist/prebuilt/node.js) keeps reading the lists it started with.
 */
function writeIfChanged(file, content) {
  const bytes = typeof content === 'string' ? Buffer.from(content) : Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  let current;
  try {
    current = readFileSync(file);
  } catch {}
  if (current?.equals(bytes)) return;
  const next = `${file}.${process.pid}.tmp`;
  writeFileSync(next, bytes);
  renameSync(next, file);
}
