// The Worker as `wrangler deploy --dry-run` bundles it (what Cloudflare runs), ready for Miniflare:
// for the suites that reach workerd over its real HTTP (test/worker-parity.test.ts,
// test/worker-tenants.test.ts, test/workerd-http/). The pool of test/workers runs the sources.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Miniflare } from 'miniflare';
import { unstable_getMiniflareWorkerOptions } from 'wrangler';

type WorkerOptions = ConstructorParameters<typeof Miniflare>[0];

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WRANGLER = createRequire(import.meta.url).resolve('wrangler/bin/wrangler.js');

export interface DeployedWorker {
  /** The folder wrangler wrote the modules to. */
  outdir: string;
  /** Miniflare's options for it: wrangler.toml's bindings, Durable Objects and dates, with these variables on top. */
  options(vars?: Record<string, string>): WorkerOptions;
  remove(): Promise<void>;
}

export async function deployedWorker(): Promise<DeployedWorker> {
  const outdir = await mkdtemp(join(tmpdir(), 'sandbox-deployed-worker-'));
  await promisify(execFile)(process.execPath, [WRANGLER, 'deploy', '--dry-run', '--outdir', outdir], {
    cwd: ROOT,
    env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
  });
  // The entry module keeps main's name; the others are the chunks it imports.
  const script = (await readdir(outdir)).find((name) => name === 'sandbox-worker.js');
  if (script === undefined) throw new Error(`wrangler deploy --dry-run wrote no sandbox-worker.js to ${outdir}`);
  const fromWrangler = unstable_getMiniflareWorkerOptions(join(ROOT, 'wrangler.toml')).workerOptions;
  return {
    outdir,
    options: (vars = {}) =>
      ({
        ...fromWrangler,
        modules: true,
        modulesRoot: outdir,
        scriptPath: join(outdir, script),
        bindings: { ...fromWrangler.bindings, ...vars },
      }) as WorkerOptions,
    remove: () => rm(outdir, { recursive: true, force: true }),
  };
}
