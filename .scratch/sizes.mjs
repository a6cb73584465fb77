import { build } from 'esbuild';
import { onlyEnglishZodLocale } from '../scripts/zod-locales.mjs';
for (const [name, o] of [['none', {}], ['ws+syntax', { minifyWhitespace: true, minifySyntax: true }], ['full', { minify: true }], ['full+keepNames', { minify: true, keepNames: true }]]) {
  const r = await build({ absWorkingDir: '/work/main', entryPoints: { 'sandbox-worker': 'src/worker.ts' }, outdir: '/tmp/sz-' + name, bundle: true, splitting: true, format: 'esm', platform: 'neutral', target: 'es2024', conditions: ['workerd','worker','browser'], mainFields: ['browser','module','main'], external: ['cloudflare:*'], plugins: [onlyEnglishZodLocale], loader: { '.bin': 'copy' }, metafile: true, logLevel: 'error', ...o });
  const outs = r.metafile.outputs; const entry = Object.keys(outs).find(k => outs[k].entryPoint);
  const seen = new Set(); const st=[entry]; while (st.length) { const x = st.pop(); if (seen.has(x)) continue; seen.add(x); for (const i of outs[x].imports) if (i.kind==='import-statement' && outs[i.path]) st.push(i.path); }
  console.log(name, [...seen].reduce((s, x) => s + outs[x].bytes, 0));
}
