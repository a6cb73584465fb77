// Bundles the Node server into one file so `npm start` loads a single module (fast cold start),
// and the published command and library likewise.
import { build } from 'esbuild';
import { writeThirdPartyLicenses } from './third-party-licenses.mjs';

const nodeBundle = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  // Some CommonJS dependencies call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
};

const [, cli, library] = await Promise.all([
  build({ ...nodeBundle, entryPoints: ['src/server.ts'], outfile: 'dist/server.js' }),
  // The published package (package.json "bin" and "exports"): the command, and the in-process
  // sandbox with the signing helpers. Its types come from tsc (tsconfig.types.json).
  build({
    ...nodeBundle,
    entryPoints: ['src/cli/bin.ts'],
    outfile: 'dist/cli.js',
    banner: { js: `#!/usr/bin/env node\n${nodeBundle.banner.js}` },
    metafile: true,
  }),
  build({ ...nodeBundle, entryPoints: ['src/index.ts'], outfile: 'dist/index.js', metafile: true }),
  // The app without a listener, for the benchmark's heap measurements (scripts/bench/app-host.mjs):
  // it hosts the app itself so it can report heap after gc. A virtual entry, so src/ needs no file for it.
  build({
    ...nodeBundle,
    stdin: {
      contents: "export { createApp } from './src/app.ts';\nexport { readConfig } from './src/config.ts';\n",
      resolveDir: process.cwd(),
      sourcefile: 'bench-app-entry.ts',
      loader: 'ts',
    },
    outfile: 'dist/app.js',
  }),
]);

// The package has no dependencies to install (everything is in the bundles, so `npx` fetches one
// package): the licenses of what the bundles hold travel with them instead.
writeThirdPartyLicenses([cli.metafile, library.metafile], 'dist/THIRD_PARTY_LICENSES.md');
