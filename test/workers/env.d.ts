// The bindings `env` from cloudflare:workers carries in the workerd suites: those of wrangler.toml.
import type { WorkerEnv } from '../../src/worker/env.js';

declare global {
  namespace Cloudflare {
    interface Env extends WorkerEnv {}
  }
}
