// A `*.bin` import as wrangler bundles it (its default Data rule): the file's bytes as the
// module's default export, an ArrayBuffer. The Worker's prebuilt sample data is one
// (dist/prebuilt/worker.js imports default-seed.bin); the Node suites import that module to
// compare it with the generator, and the workerd pool's own handling of Data modules cannot load
// one outside the project's folder (it joins the project root to the /@fs/ path).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Plugin } from 'vitest/config';

/** Marks a `*.bin` import resolved here, so that the workerd pool's own Data rule does not take it. */
const DATA_SUFFIX = '?as-data-module.js';

export function dataModules(): Plugin {
  return {
    name: 'sandbox-data-modules',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!source.endsWith('.bin') || importer === undefined) return null;
      return resolve(dirname(importer), source) + DATA_SUFFIX;
    },
    load(id) {
      if (!id.endsWith(DATA_SUFFIX)) return null;
      const base64 = readFileSync(id.slice(0, -DATA_SUFFIX.length)).toString('base64');
      return `const text = atob(${JSON.stringify(base64)});
const bytes = new Uint8Array(text.length);
for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
export default bytes.buffer;
`;
    },
  };
}
