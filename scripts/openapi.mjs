// `npm run openapi`: writes openapi.json, the OpenAPI document the sandbox serves at /openapi.json
// with its default configuration, so a client can be generated in any language from a clone
// without starting anything. Its `servers` name the default address (README, "Configuration").
// test/openapi-published.test.ts fails while the file differs from what the sandbox serves:
// a renamed operationId renames a generated client's method, so a change to it is a decision.
//
//   npm run openapi [-- <file>]   <file>: write there instead (test/openapi-published.test.ts)
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSandbox } from '../dist/index.js';

const SERVER = 'http://127.0.0.1:8787';
const response = await createSandbox().fetch(new Request(`${SERVER}/openapi.json`));
const document = await response.json();
const path = process.argv[2] === undefined ? fileURLToPath(new URL('../openapi.json', import.meta.url)) : resolve(process.argv[2]);
writeFileSync(path, `${JSON.stringify(document, null, 2)}\n`);
console.log(`wrote ${path}: ${Object.keys(document.paths).length} paths, served as ${SERVER}/openapi.json`);
