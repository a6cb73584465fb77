// The package as `npm pack` makes it, for the suites that install the tarball as a user does
// (test/package.test.ts, test/start-stop.test.ts). Packed once per test worker, whichever suite
// asks first (a worker runs many suites): the sources as they stand in this checkout (committed or not, ignored files left
// out) are copied to a temporary folder and packed there, `npm pack` running prepack (the build
// and the types) in the copy, so this checkout's dist/, which other suites run at the same time,
// is never touched.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface PackedPackage {
  /** The copy of the sources the package was built and packed from. */
  sources: string;
  /** The tarball's path. */
  tarball: string;
}

let packed: Promise<PackedPackage> | undefined;

/**
 * A new folder under the system's temporary one, named for this process. A test worker is ended
 * without an exit event to clean up on, so a worker removes the folders of workers that have
 * ended instead (a run's worker still running keeps its own).
 */
function temporaryFolder(prefix: string): string {
  for (const name of readdirSync(tmpdir())) {
    const owner = Number(name.match(new RegExp(`^${prefix}-(\\d+)-`))?.[1]);
    if (owner > 0 && !running(owner)) rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
  return mkdtempSync(join(tmpdir(), `${prefix}-${process.pid}-`));
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Packs the package, or resolves to the tarball this worker packed already. */
export function packedPackage(): Promise<PackedPackage> {
  packed ??= pack();
  return packed;
}

async function pack(): Promise<PackedPackage> {
  const root = process.cwd();
  const folder = temporaryFolder('sandbox-packed');
  const sources = join(folder, 'sources');
  const { stdout: files } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    maxBuffer: 16 * 1024 * 1024,
  });
  for (const file of files.split('\0').filter((name) => name !== '' && existsSync(join(root, name)))) {
    mkdirSync(dirname(join(sources, file)), { recursive: true });
    cpSync(join(root, file), join(sources, file));
  }
  symlinkSync(join(root, 'node_modules'), join(sources, 'node_modules'), 'dir');
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', folder], {
    cwd: sources,
    maxBuffer: 16 * 1024 * 1024,
  });
  const [{ filename }] = JSON.parse(stdout.slice(stdout.indexOf('['))) as [{ filename: string }];
  return { sources, tarball: join(folder, filename) };
}

/** A new project folder with the tarball installed as a user installs it: offline, no dev dependencies. */
export async function installPacked(tarball: string): Promise<string> {
  const project = temporaryFolder('sandbox-project');
  writeFileSync(join(project, 'package.json'), '{ "name": "user-project", "private": true }\n');
  // --offline: the package needs nothing from the registry, so an install can never fetch a dependency.
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: project });
  return project;
}
