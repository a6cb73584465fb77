// The app of each configuration, built on the first request that needs it and kept for the life
// of the isolate. Building generates the sample data (~100 ms of CPU), which must stay out of
// the global scope: Workers bound the CPU time of a script's startup.
import { createApp } from '../app.js';
import { readConfig, type ConfigSources } from '../config.js';
import type { DocsAssets } from '../docs/assets.js';
import type { WorkerEnv } from './env.js';
import { DurableObjectIdempotencyStore } from './idempotency-store.js';
import { DurableObjectRateLimiter } from './rate-limiter.js';
import { RequestScopedDelivery } from '../webhooks/dispatcher.js';
import { signedTarget } from '../webhooks/target.js';

export type SandboxApp = ReturnType<typeof createApp>;

/**
 * A deployed Worker has one configuration, so this holds one app. Tests hand the same isolate
 * other variables (another rate limit, say); a few entries cover them without growing unbounded.
 */
const MAX_APPS = 8;
const apps = new Map<string, SandboxApp>();

export function appFor(env: WorkerEnv): SandboxApp {
  const sources = configSources(env);
  const cacheKey = JSON.stringify(Object.values(sources));
  let app = apps.get(cacheKey);
  if (app === undefined) {
    app = buildApp(env, sources);
    if (apps.size >= MAX_APPS) apps.clear();
    apps.set(cacheKey, app);
  }
  return app;
}

function buildApp(env: WorkerEnv, sources: ConfigSources): SandboxApp {
  const config = readConfig(sources);
  // Node makes a secret and prints it; a Worker has no start-up to print at, and each isolate
  // would make another, so it must be given (`wrangler secret put SANDBOX_WEBHOOK_SECRET`).
  const webhook = config.webhook;
  if (webhook !== null && webhook.secret === undefined) {
    throw new Error('SANDBOX_WEBHOOK_URL is set but SANDBOX_WEBHOOK_SECRET is not: on Workers, set the whsec_ secret your receiver checks');
  }
  return createApp(config, {
    idempotency: new DurableObjectIdempotencyStore(env.IDEMPOTENCY),
    rateLimiter: config.rateLimit === null ? null : new DurableObjectRateLimiter(env.RATE_LIMITS, config.rateLimit),
    // Cloudflare sets CF-Connecting-IP to the address of the client that reached its edge.
    clientAddress: (c) => c.req.header('CF-Connecting-IP') ?? 'unknown',
    docsAssets: env.ASSETS === undefined ? undefined : assetsFrom(env.ASSETS),
    events: webhook === null ? null : new RequestScopedDelivery(signedTarget(webhook)),
  });
}

/** /docs files from Workers Static Assets; the binding answers by path, whatever the host. */
function assetsFrom(assets: Fetcher): DocsAssets {
  return async (name) => {
    const response = await assets.fetch(`https://assets.invalid/${name}`);
    return response.ok ? (response.body ?? undefined) : undefined;
  };
}

function configSources(env: WorkerEnv): ConfigSources {
  return {
    SANDBOX_SEED: env.SANDBOX_SEED,
    SANDBOX_RATE_LIMIT: env.SANDBOX_RATE_LIMIT,
    SANDBOX_KEYS: typeof env.SANDBOX_KEYS === 'object' ? JSON.stringify(env.SANDBOX_KEYS) : env.SANDBOX_KEYS,
    SANDBOX_CLOCK: env.SANDBOX_CLOCK,
    SANDBOX_WEBHOOK_URL: env.SANDBOX_WEBHOOK_URL,
    SANDBOX_WEBHOOK_SECRET: env.SANDBOX_WEBHOOK_SECRET,
    SANDBOX_WEBHOOK_EVENTS: env.SANDBOX_WEBHOOK_EVENTS,
    SANDBOX_FAULTS: env.SANDBOX_FAULTS,
  };
}
