// In-process start-up, as an integrator's test suite meets it: a fresh Node process that imports
// the package (dist/index.js), calls createSandbox() and answers its first GET, against a fresh
// process that imports Hono and answers the same request from a one-route app. Timed from spawn
// to exit; each process prints its own answer's status so a wrong answer never counts.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { PUBLIC_KEY } from './scenarios.mjs';

const REQUEST = `new Request('http://sandbox.local/v1/jobs?limit=1', { headers: { Authorization: 'Bearer ${PUBLIC_KEY}' } })`;

export const IN_PROCESS_PROGRAMS = {
  sandbox: `import { createSandbox } from './dist/index.js';
const sandbox = createSandbox();
const response = await sandbox.fetch(${REQUEST});
await response.arrayBuffer();
console.log(response.status);`,
  bare: `import { Hono } from 'hono';
const app = new Hono();
app.get('/v1/jobs', (c) => c.json({ object: 'list', data: [], has_more: false, next_cursor: null }));
const response = await app.fetch(${REQUEST});
await response.arrayBuffer();
console.log(response.status);`,
};

/** Spawn to exit of one program, in ms; throws unless it answered 200. */
export function timeProgram(root, source) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--input-type=module', '-e', source], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      const ms = performance.now() - started;
      if (code === 0 && output.trim() === '200') resolve(ms);
      else reject(new Error(`in-process program exited ${code}: ${output.trim().slice(0, 300)}`));
    });
  });
}
