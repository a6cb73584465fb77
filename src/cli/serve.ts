// `waste-operations-sandbox [serve]` and `node dist/server.js`: reads configuration from flags
// and the environment (the names of the published "Configuration" table), builds the app and
// listens, on loopback unless told otherwise.
import { readFileSync } from 'node:fs';
import { createApp } from '../app.js';
import { type ApiKey, workingKey } from '../auth/keys.js';
import { rateLimitPolicy, readConfig } from '../config.js';
import { pathAndQuery } from '../http/query.js';
import { nodeDocsAssets } from '../docs/node-assets.js';
import { socketAddress, startNodeServer, whenHeadWritten } from '../node-server.js';
import { ENDPOINTS } from '../resources/index.js';
import { timestamp } from '../schemas/new-records.js';
import { describeDelivery, WebhookDispatcher } from '../webhooks/dispatcher.js';
import { EMITTED_TYPES, signedTarget } from '../webhooks/target.js';
import { parseFlags } from './flags.js';
import { UsageError } from './usage-error.js';
import { VERSION } from './version.js';

export const DEFAULT_PORT = 8787;
/** How long a stopping server waits for deliveries in flight. */
const SHUTDOWN_GRACE_MS = 1_500;

export const SERVE_USAGE = `Serve flags (each with its environment variable):
  --port N            PORT                where to listen (default ${DEFAULT_PORT}; 0 picks a free port)
  --host ADDR         HOST                address to listen on (default 127.0.0.1)
  --seed TEXT         SANDBOX_SEED        seed of the sample data (default the published seed)
  --rate-limit N|off  SANDBOX_RATE_LIMIT  requests per second per key and address (default 25)
  --keys FILE|JSON    SANDBOX_KEYS        key table replacing the default one
  --clock TIME        SANDBOX_CLOCK       pin the clock of every answer, e.g. 2026-03-02T17:00:00Z
  --webhook-url URL   SANDBOX_WEBHOOK_URL where the events of writes go (job.created, …), e.g. http://127.0.0.1:4242/webhooks
  --webhook-secret S  SANDBOX_WEBHOOK_SECRET  whsec_… signing them (default: a new one, printed)
  --webhook-events L  SANDBOX_WEBHOOK_EVENTS  comma list of event types to send, or * (default)
  --log                                   one line per request: method, path, status, ms, request id
  --help, --version`;

/**
 * SANDBOX_KEYS may be JSON text or the path of a JSON file. Text that opens like JSON (an array,
 * or the single object people often write first) is parsed as JSON, so its message says what is
 * wrong with the table rather than that no file has that name.
 */
function keyTableText(value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '' || /^[[{]/.test(value.trim())) return value;
  try {
    return readFileSync(value, 'utf8');
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'there is no such file' : (error as Error).message;
    throw new UsageError(
      `--keys / SANDBOX_KEYS: cannot read the file ${value} (${why}); give the path of a JSON key table, or the table itself, such as [{"key":"svc_test_mine","account":"A","scopes":"*"}]`,
    );
  }
}

/** The flag of each variable, so a message about a bad value names both ways of giving it. */
const FLAG_OF_VARIABLE: Record<string, string> = {
  SANDBOX_SEED: '--seed',
  SANDBOX_RATE_LIMIT: '--rate-limit',
  SANDBOX_KEYS: '--keys',
  SANDBOX_CLOCK: '--clock',
  SANDBOX_WEBHOOK_URL: '--webhook-url',
  SANDBOX_WEBHOOK_SECRET: '--webhook-secret',
  SANDBOX_WEBHOOK_EVENTS: '--webhook-events',
};

function withFlagName(message: string): string {
  const variable = message.match(/^[A-Z_]+/)?.[0];
  const flag = variable === undefined ? undefined : FLAG_OF_VARIABLE[variable];
  return flag === undefined ? message : `${flag} / ${message}`;
}

/**
 * A path and its query as a log line shows them, cut at 200 characters: the query is what tells
 * `GET /v1/jobs?stauts=open 400` from a good request. Headers, and so the key, are never shown.
 */
function loggedPath(url: string): string {
  const path = pathAndQuery(url);
  return path.length <= 200 ? path : `${path.slice(0, 200)}…`;
}

/** A list the key can read, for the banner's curl: the jobs when it may, else the first it can. */
function tryPath(key: ApiKey): string | undefined {
  const lists = ENDPOINTS.filter(
    (endpoint) => endpoint.method === 'GET' && endpoint.pathId === undefined && key.scopes.has(endpoint.scope),
  );
  const list = lists.find((endpoint) => endpoint.path === '/v1/jobs') ?? lists[0];
  return list === undefined ? undefined : `${list.path}?limit=2`;
}

/** The banner's last line: a request that works with the configured table, or why there is none. */
function tryLine(key: ApiKey | undefined, origin: string): string {
  if (key === undefined) return 'No key of the key table can be used (every key is revoked or has no scope): every request answers 401.';
  const path = tryPath(key);
  if (path === undefined) return `Key: ${key.key} (it can only write: ${[...key.scopes].join(', ')})`;
  return `Try: curl -H 'Authorization: Bearer ${key.key}' '${origin}${path}'`;
}

type FetchHandler = (request: Request, env?: unknown) => Response | Promise<Response>;

/**
 * Wraps the app so each answer prints `GET /v1/jobs 200 1.4ms req_…`. Headers are never printed,
 * so neither is the API key.
 */
function withRequestLog(fetch: FetchHandler): FetchHandler {
  return async (request, env) => {
    const started = performance.now();
    const response = await fetch(request, env);
    const ms = (performance.now() - started).toFixed(1);
    // The method as it arrived: the Node server hands a HEAD to the app as its GET.
    const method = (env as { incoming?: { method?: string } } | undefined)?.incoming?.method ?? request.method;
    const line = (status: number, id: string | null | undefined) =>
      console.log(`${method} ${loggedPath(request.url)} ${status} ${ms}ms ${id ?? '-'}`);
    // Not response.headers: reading it makes @hono/node-server write the names lower-cased and
    // sorted, so --log would change the answer's bytes (issue #18). The ID is read as written.
    if (!whenHeadWritten(env, (status, header) => line(status, header('Request-Id'))))
      line(response.status, response.headers.get('Request-Id'));
    return response;
  };
}

/** Why the server could not listen, in words that say which flag to change. */
function listenProblem(error: NodeJS.ErrnoException, port: number, hostname: string): string {
  switch (error.code) {
    case 'EADDRINUSE':
      return `Port ${port} on ${hostname} is in use; choose another with --port.`;
    case 'EACCES':
      return `Port ${port} on ${hostname} needs privileges this user lacks; choose a port above 1023 with --port.`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
    case 'EADDRNOTAVAIL':
      return `--host / HOST "${hostname}" is not an address of this machine, so the sandbox cannot listen on it; use 127.0.0.1 (this machine only, the default), 0.0.0.0 (every network interface) or one of this machine's addresses.`;
    default:
      return `Cannot listen on ${hostname} port ${port}: ${error.message}`;
  }
}

/** Starts the server; resolves to an exit code only when it does not start one (--help, --version). */
export function serve(argv: readonly string[]): number | undefined {
  const { values: flags } = parseFlags({
    args: [...argv],
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      seed: { type: 'string' },
      'rate-limit': { type: 'string' },
      keys: { type: 'string' },
      clock: { type: 'string' },
      'webhook-url': { type: 'string' },
      'webhook-secret': { type: 'string' },
      'webhook-events': { type: 'string' },
      log: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
    strict: true,
  });
  if (flags.help) {
    console.log(`waste-operations-sandbox ${VERSION}: the Waste Operations API sandbox\n\n${SERVE_USAGE}`);
    return 0;
  }
  if (flags.version) {
    console.log(VERSION);
    return 0;
  }

  let config: ReturnType<typeof readConfig>;
  try {
    config = readConfig({
      SANDBOX_SEED: flags.seed ?? process.env.SANDBOX_SEED,
      SANDBOX_RATE_LIMIT: flags['rate-limit'] ?? process.env.SANDBOX_RATE_LIMIT,
      SANDBOX_KEYS: keyTableText(flags.keys ?? process.env.SANDBOX_KEYS),
      SANDBOX_CLOCK: flags.clock ?? process.env.SANDBOX_CLOCK,
      SANDBOX_WEBHOOK_URL: flags['webhook-url'] ?? process.env.SANDBOX_WEBHOOK_URL,
      SANDBOX_WEBHOOK_SECRET: flags['webhook-secret'] ?? process.env.SANDBOX_WEBHOOK_SECRET,
      SANDBOX_WEBHOOK_EVENTS: flags['webhook-events'] ?? process.env.SANDBOX_WEBHOOK_EVENTS,
    });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(withFlagName(error instanceof Error ? error.message : String(error)));
  }
  const portText = flags.port ?? process.env.PORT ?? String(DEFAULT_PORT);
  const port = Number(portText);
  if (!/^\d{1,5}$/.test(portText.trim()) || port > 65535)
    throw new UsageError(`--port / PORT must be a port number from 0 to 65535, not "${portText}"`);
  const hostname = flags.host ?? process.env.HOST ?? '127.0.0.1';

  // The events of writes: signed with the given secret, or with one made now and printed below.
  const webhook = config.webhook === null ? undefined : signedTarget(config.webhook);
  const dispatcher =
    webhook === undefined
      ? undefined
      : new WebhookDispatcher(webhook, {
          userAgent: `waste-operations-sandbox/${VERSION}`,
          ...(flags.log ? { onAttempt: (event, attempt) => console.log(describeDelivery(event, attempt)) } : {}),
        });
  const app = createApp(config, { clientAddress: socketAddress, docsAssets: nodeDocsAssets(), events: dispatcher ?? null });
  const fetch: FetchHandler = flags.log ? withRequestLog(app.fetch) : app.fetch;

  // Headers within 10 s, a whole request within 30 s, swept every second (src/node-server.ts).
  const server = startNodeServer(fetch, { port, hostname, rateLimitPolicy: rateLimitPolicy(config.rateLimit) }, (info) => {
    const rate = config.rateLimit === null ? 'off' : `${config.rateLimit}/s`;
    const origin = `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${info.port}`;
    console.log(`Waste Operations API sandbox on ${origin} (seed ${config.seed}, rate limit ${rate})`);
    console.log(`Docs: ${origin}/docs`);
    if (config.clock !== null) console.log(`Clock pinned at ${timestamp(config.clock)}: the same request gets the same answer`);
    if (webhook !== undefined) {
      const types = (webhook.events === '*' ? EMITTED_TYPES : webhook.events).join(', ');
      console.log(`Events of writes (${types}) → ${webhook.url}`);
      // A secret the operator gave stays out of the log; one made here must be shown to be used.
      console.log(
        webhook.made
          ? `Webhook signing secret: ${webhook.secret} (a new one; pass --webhook-secret to use your receiver's)`
          : 'Webhook signing secret: the one of --webhook-secret / SANDBOX_WEBHOOK_SECRET',
      );
    }
    console.log(tryLine(workingKey(config.keys), origin));
  });
  server.once('error', (error: NodeJS.ErrnoException) => {
    console.error(listenProblem(error, port, hostname));
    process.exit(1);
  });
  // Deliveries still in flight get a short grace, never more: a receiver that is down must not
  // hold a CI job's shutdown.
  const stop = () => {
    const closed = new Promise((resolve) => server.close(resolve));
    void Promise.all([closed, dispatcher?.idle(SHUTDOWN_GRACE_MS)]).then(() => process.exit(0));
    setTimeout(() => process.exit(0), SHUTDOWN_GRACE_MS + 500).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return undefined;
}
