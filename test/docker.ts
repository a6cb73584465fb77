// A Docker engine is what npm cannot bring: the suites that need one find it (DOCKER_HOST, else
// the default socket) and use it, or say in one line that they were skipped. Under CI=true a
// missing engine is a failure, never a skip: .ci/run starts one.
import { execFileSync, spawnSync } from 'node:child_process';

/** Why there is no usable engine, or undefined when `docker version` reaches one. */
function engineProblem(): string | undefined {
  const probe = spawnSync('docker', ['version', '--format', '{{.Server.Version}}'], { encoding: 'utf8', timeout: 15_000 });
  if (probe.error !== undefined) return `no docker command (${probe.error.message})`;
  if (probe.status !== 0) return `no Docker engine answers (${(probe.stderr.trim().split('\n')[0] ?? '').slice(0, 160)})`;
  return undefined;
}

const problem = engineProblem();

/**
 * True when the suite can run. Otherwise prints the one line that says the suite was skipped
 * and why, or, under CI=true, throws: CI must run everything.
 */
export function dockerAvailable(suite: string): boolean {
  if (problem === undefined) return true;
  if (process.env.CI === 'true')
    throw new Error(`${suite} needs a Docker engine and CI=true skips nothing: ${problem}. .ci/run installs and starts one.`);
  console.log(`${suite}: skipped, ${problem}. Set DOCKER_HOST or start a Docker engine to run it (.ci/run does).`);
  return false;
}

/** Runs the docker CLI and returns what it printed; throws with its stderr when it fails. */
export function docker(args: readonly string[], input?: Buffer): string {
  return execFileSync('docker', args, { encoding: 'utf8', input, stdio: ['pipe', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 });
}

/** Runs the docker CLI without throwing: status, stdout and stderr. */
export function dockerResult(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync('docker', args, { encoding: 'utf8', timeout: 120_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
