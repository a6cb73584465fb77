// Swagger UI's files on Node: from `docs-assets` by the running bundle (dist/docs-assets,
// laid out by scripts/docs-assets.mjs, for `node dist/server.js` and the published package),
// else from node_modules/swagger-ui-dist (running the sources with tsx). Read on first use.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DocsAssets } from './assets.js';

function assetsDirectory(): string | undefined {
  // The bundle is dist/server.js, dist/app.js or a chunk of dist/chunks/: dist/docs-assets is
  // beside it or one level up.
  for (const path of ['./docs-assets', '../docs-assets']) {
    const besideBundle = fileURLToPath(new URL(path, import.meta.url));
    if (existsSync(besideBundle)) return besideBundle;
  }
  try {
    return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  } catch {
    return undefined;
  }
}

export function nodeDocsAssets(): DocsAssets {
  const directory = assetsDirectory();
  const cache = new Map<string, Promise<Uint8Array<ArrayBuffer> | undefined>>();
  return (name) => {
    if (directory === undefined) return Promise.resolve(undefined);
    let bytes = cache.get(name);
    if (bytes === undefined) {
      bytes = readFile(join(directory, name)).then(
        (buffer) => new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength) as Uint8Array<ArrayBuffer>,
        () => undefined,
      );
      cache.set(name, bytes);
    }
    return bytes;
  };
}
