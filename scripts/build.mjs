// Bundles the Node server into one file so `npm start` loads a single module (fast cold start).
import { build } from 'esbuild';

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

await Promise.all([
  build({ ...nodeBundle, entryPoints: ['src/server.ts'], outfile: 'dist/server.js' }),
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
