import { build } from 'esbuild';
import { onlyEnglishZodLocale } from '/work/main/scripts/zod-locales.mjs';
const r = await build({ absWorkingDir: '/work/main', entryPoints: { 'sandbox-worker': 'src/worker.ts' }, outdir: '/tmp/metaout', bundle: true, splitting: true, format: 'esm', platform: 'neutral', target: 'es2024', conditions: ['workerd','worker','browser'], mainFields: ['browser','module','main'], external: ['cloudflare:*'], plugins: [onlyEnglishZodLocale], loader: { '.bin': 'copy' }, metafile: true, write: true, logLevel: 'error' });
const outs = r.metafile.outputs;
// static closure of entry
const entry = Object.keys(outs).find(k => outs[k].entryPoint);
const seen = new Set(); const stack=[entry];
while (stack.length) { const o = stack.pop(); if (seen.has(o)) continue; seen.add(o); for (const i of outs[o].imports) if (i.kind==='import-statement' && outs[i.path]) stack.push(i.path); }
const byPkg = {};
for (const o of seen) for (const [inp, v] of Object.entries(outs[o].inputs)) { const m = inp.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/); const k = m ? m[1] : inp.split('/').slice(0,2).join('/'); byPkg[k]=(byPkg[k]||0)+v.bytesInOutput; }
console.log([...seen].map(o=>o+' '+outs[o].bytes).join('\n'));
console.log(Object.entries(byPkg).sort((a,b)=>b[1]-a[1]).slice(0,25).map(([k,v])=>k.padEnd(40)+v).join('\n'));
