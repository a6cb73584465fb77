// Builds dist/ once before the Node suites, for the tests that spawn the built server or CLI
// (test/pinned-clock.test.ts, test/package.test.ts, …): one build, never two racing in parallel
// test files. A no-op when dist/ is current (scripts/build.mjs --if-stale).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  execFileSync(process.execPath, [fileURLToPath(new URL('../scripts/build.mjs', import.meta.url)), '--if-stale'], { stdio: 'inherit' });
}
