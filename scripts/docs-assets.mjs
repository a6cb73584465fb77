// Lays out the Swagger UI files /docs serves in dist/docs-assets: Workers Static Assets upload
// that directory (wrangler.toml [assets], this script is its [build] command) and the Node
// bundle reads it beside dist/server.js (src/docs/node-assets.ts). Keep the list in step with
// src/docs/assets.ts.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const FILES = ['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png'];

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const source = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const target = join(root, 'dist', 'docs-assets');
mkdirSync(target, { recursive: true });
// Swagger UI's license and notices travel with its files (Apache-2.0). Not served: /docs serves
// only the names of src/docs/assets.ts.
for (const file of [...FILES, 'LICENSE', 'NOTICE', 'swagger-ui-bundle.js.LICENSE.txt']) {
  // A file already in place is left alone, so a rebuild (npm pack in the tests) never rewrites
  // what a running Worker is serving from this directory.
  const from = join(source, file);
  const to = join(target, file);
  if (!existsSync(to) || !readFileSync(from).equals(readFileSync(to))) copyFileSync(from, to);
}
