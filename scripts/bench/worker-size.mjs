// The Worker bundle's gzip size, measured as wrangler reports it (all modules, the prebuilt data's
// Data module included, gzip at the default level), against the 3 MiB limit of Workers' Free plan.
// Returns { na: reason } when there is no bundle.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { spawnTracked, stop } from './processes.mjs';

const CONFIG_FILES = ['wrangler.toml', 'wrangler.json', 'wrangler.jsonc'];
const OUT_DIR = 'dist/worker';

/** The line of a failed build that says most: wrangler's [ERROR] line, else the last one. */
function reasonOf(output) {
  const lines = output
    // biome-ignore lint/suspicious/noControlCharactersInRegex: strips terminal colour codes
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const line = lines.find((text) => /\[ERROR\]|^Error|ERR!/.test(text)) ?? lines.at(-1) ?? 'no output';
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}

function exitCode(child, timeoutMs) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      stop(child, 0);
      resolve('timeout');
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

/** Modules written by this build (older files in the folder are left from earlier builds). */
function builtModules(root, since) {
  const dir = join(root, OUT_DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((name) => /\.(m?js|bin)$/.test(name))
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).mtimeMs >= since - 1000)
    .sort();
}

export async function workerBundleSize(root, timeoutMs = 180_000) {
  if (!CONFIG_FILES.some((name) => existsSync(join(root, name)))) return { na: 'no wrangler config in the project yet' };
  const since = Date.now();
  const child = spawnTracked('npm', ['run', 'worker:build'], {
    cwd: root,
    group: true,
    env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' },
  });
  const code = await exitCode(child, timeoutMs);
  if (code === 'timeout') return { na: `npm run worker:build took over ${timeoutMs / 1000} s` };
  if (code !== 0) return { na: `npm run worker:build failed: ${reasonOf(child.output)}` };
  const files = builtModules(root, since);
  if (files.length === 0) return { na: `npm run worker:build wrote no modules to ${OUT_DIR}` };
  const bundle = Buffer.concat(files.map((path) => readFileSync(path)));
  return { files: files.map((path) => relative(root, path)), rawBytes: bundle.length, gzipBytes: gzipSync(bundle).length };
}
