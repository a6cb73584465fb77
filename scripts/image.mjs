// `npm run image`: the sandbox as a container image, `waste-operations-sandbox:<version>` and
// `:latest`, loaded into the local Docker engine (DOCKER_HOST, else the default socket).
//
//   npm run image                                   linux/amd64, loaded into the engine
//   npm run image -- --platform linux/arm64         the arm64 variant
//   npm run image -- --output FILE                  the image as an OCI archive file; no engine needed
//   npm run image -- --tag NAME:TAG                 other names (repeatable) instead of the two
//
// No registry is needed: the image is `FROM scratch` in effect, two layers written by code
// (scripts/image/archive.mjs). The first holds the official Node binary from the npm registry and
// the C libraries it links, from Debian's packages; the second the built package (dist/). The
// same sources and inputs give the same image ID: file times are the last commit's time
// (SOURCE_DATE_EPOCH overrides), and nothing else of the build machine goes in.
// docs/container.md says what the image does and how to publish it.
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { imageArchive, tarOf } from './image/archive.mjs';
import { cLibraries, nodeBinary } from './image/inputs.mjs';
import { NODE_VERSION, platformOf } from './image/platforms.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const NAME = pkg.name;
const CACHE = join(root, 'node_modules', '.cache', 'image');
/** The user the server runs as: no privileges, the number distroless images use for "nonroot". */
const USER = 65532;
export const PORT = 8787;
/**
 * The health check, in exec form (no shell in the image): Node asks /health on the container's
 * own port and exits 0 on a 200. Every 2 s, so a wait on the health check (Testcontainers'
 * `Wait.forHealthCheck()`) is over about 2 s after start.
 */
const HEALTHCHECK = [
  'CMD',
  '/usr/local/bin/node',
  '-e',
  "require('node:http').get({host:'127.0.0.1',port:process.env.PORT||8787,path:'/health',timeout:1500},(r)=>process.exit(r.statusCode===200?0:1)).on('error',()=>process.exit(1)).on('timeout',()=>process.exit(1))",
];
const SECOND = 1_000_000_000;

function usage(message) {
  console.error(
    `${message}\nUsage: npm run image [-- --platform linux/amd64|linux/arm64] [--tag NAME:TAG …] [--output FILE] [--source URL]`,
  );
  process.exit(2);
}

let options;
try {
  ({ values: options } = parseArgs({
    options: {
      platform: { type: 'string', default: 'linux/amd64' },
      tag: { type: 'string', multiple: true },
      output: { type: 'string' },
      source: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  }));
} catch (error) {
  usage(error.message);
}
if (options.help) usage('Builds the sandbox as a container image.');
let platform;
try {
  platform = platformOf(options.platform);
} catch (error) {
  usage(error.message);
}
const tags = options.tag ?? [`${NAME}:${pkg.version}`, `${NAME}:latest`];
for (const tag of tags) if (!/^[a-z0-9][a-z0-9._/-]*:[\w][\w.-]{0,127}$/.test(tag)) usage(`--tag takes NAME:TAG, not "${tag}"`);

const log = (line) => console.log(`image: ${line}`);

/**
 * The image's `source` label: --source (the publishing workflow passes its repository's URL),
 * else package.json's repository. Not the clone's remote: a build must not depend on where it was
 * cloned from.
 */
function sourceUrl() {
  if (options.source !== undefined) return options.source;
  const fromPackage = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
  return fromPackage?.replace(/^git\+/, '').replace(/\.git$/, '') ?? 'unpublished: pass --source URL';
}

/** File times and the image's date: the last commit's, so a rebuild of one commit is the same. */
function sourceDate() {
  const fromEnvironment = process.env.SOURCE_DATE_EPOCH;
  if (fromEnvironment !== undefined && /^\d+$/.test(fromEnvironment)) return new Date(Number(fromEnvironment) * 1000);
  try {
    return new Date(Number(execFileSync('git', ['log', '-1', '--format=%ct'], { cwd: root, encoding: 'utf8' }).trim()) * 1000);
  } catch {
    return new Date(0);
  }
}

/** The built package's files the server runs (package.json "files", less types and docs). */
function appFiles() {
  execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-stale'], { stdio: 'inherit' });
  const dist = join(root, 'dist');
  const wanted = (path) =>
    path === 'cli.js' ||
    path === 'THIRD_PARTY_LICENSES.md' ||
    path === 'prebuilt/default-seed.bin' ||
    (path.startsWith('chunks/') && path.endsWith('.js')) ||
    path.startsWith('docs-assets/');
  const files = readdirSync(dist, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dist, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .filter(wanted)
    .map((path) => ({ path: `/app/dist/${path}`, body: readFileSync(join(dist, path)) }));
  // The bundles are ES modules: Node reads that from the nearest package.json.
  const manifest = { name: NAME, version: pkg.version, type: 'module', private: true };
  files.push({ path: '/app/package.json', body: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`) });
  return files;
}

const created = sourceDate();
const started = performance.now();
const node = nodeBinary(CACHE, platform, log);
const runtime = [
  { path: '/usr/local/bin/node', body: readFileSync(join(node, 'node')), mode: 0o755 },
  { path: '/usr/share/doc/node/LICENSE', body: readFileSync(join(node, 'LICENSE')) },
  ...cLibraries(CACHE, platform, log).map(([path, source]) => ({ path, body: readFileSync(source), mode: 0o755 })),
  // Names for the user, so `id` and tools that look the user up find one; no shell, no home.
  { path: '/etc/passwd', body: Buffer.from(`root:x:0:0:root:/:/sbin/nologin\nsandbox:x:${USER}:${USER}:sandbox:/:/sbin/nologin\n`) },
  { path: '/etc/group', body: Buffer.from(`root:x:0:\nsandbox:x:${USER}:\n`) },
  { path: '/tmp', type: 'directory', mode: 0o1777 },
];

const config = {
  created: created.toISOString(),
  architecture: platform.architecture,
  os: 'linux',
  config: {
    User: `${USER}:${USER}`,
    Env: ['PATH=/usr/local/bin', `PORT=${PORT}`, 'HOST=0.0.0.0'],
    Entrypoint: ['/usr/local/bin/node', '/app/dist/cli.js'],
    WorkingDir: '/app',
    ExposedPorts: { [`${PORT}/tcp`]: {} },
    StopSignal: 'SIGTERM',
    Healthcheck: { Test: HEALTHCHECK, Interval: 2 * SECOND, Timeout: 2 * SECOND, StartPeriod: 10 * SECOND, Retries: 3 },
    Labels: {
      'org.opencontainers.image.title': NAME,
      'org.opencontainers.image.description': pkg.description,
      'org.opencontainers.image.version': pkg.version,
      'org.opencontainers.image.source': sourceUrl(),
      'org.opencontainers.image.licenses': pkg.license ?? 'NOASSERTION',
      'org.opencontainers.image.created': created.toISOString(),
    },
  },
  history: [
    { created: created.toISOString(), created_by: `Node ${NODE_VERSION} (npm ${platform.nodePackage}) and its C libraries (Debian)` },
    { created: created.toISOString(), created_by: `${NAME} ${pkg.version} (dist/)` },
  ],
};

const { bytes, id } = await imageArchive({
  layers: [await tarOf(runtime, created), await tarOf(appFiles(), created)],
  config,
  tags,
  created,
});
const mib = (bytes.length / 2 ** 20).toFixed(1);

if (options.output !== undefined) {
  writeFileSync(options.output, bytes);
  log(
    `${options.platform} ${id} (${mib} MiB, uncompressed) written to ${options.output} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
} else {
  const load = spawn('docker', ['load'], { stdio: ['pipe', 'inherit', 'inherit'] });
  load.on('error', (error) => {
    console.error(`image: cannot run docker (${error.message}); install the Docker CLI, or write the image to a file with --output`);
    process.exit(1);
  });
  load.stdin.on('error', () => {});
  load.stdin.end(bytes);
  const [code] = await new Promise((resolve) => load.on('close', (...result) => resolve(result)));
  if (code !== 0) {
    console.error('image: docker load failed (is a Docker engine running? DOCKER_HOST names it, else the default socket)');
    process.exit(1);
  }
  log(`${options.platform} ${id} (${mib} MiB) loaded as ${tags.join(', ')} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
