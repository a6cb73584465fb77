// `waste-operations-sandbox [serve]` and `node dist/server.js`: reads configuration from flags
// and the environment (the names of the published "Configuration" table), builds the app and
// listens, on loopback unless told otherwise.
import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { createApp } from '../app.js';
import { type ApiKey, workingKey } from '../auth/keys.js';
import { rateLimitPolicy, type SandboxConfig } from '../config.js';
import { ConfigError } from '../config/problems.js';
import { type ConfigSources, readText, type Variable, VARIABLES } from '../config/sources.js';
import { loggedPath } from '../http/request-log.js';
import { nodeDocsAssets } from '../docs/node-assets.js';
import { clientAddressOf, startNodeServer, whenHeadWritten } from '../node-server.js';
import { parseTrustProxy } from '../http-edge/forwarded-for.js';
import { isLostAnswer } from '../faults/lost-answer.js';
import { ENDPOINTS } from '../resources/index.js';
import { timestamp } from '../schemas/new-records.js';
import { describeDelivery, WebhookDispatcher } from '../webhooks/dispatcher.js';
import { EMITTED_TYPES, signedTarget } from '../webhooks/target.js';
import { describeRandomFaults } from '../faults/random.js';
import { parseFlags } from './flags.js';
import { UsageError } from './usage-error.js';
import { VERSION } from './version.js';

export const DEFAULT_PORT = 8787;
/**
 * The banner's last line, printed once the server answers: the same in every version and
 * configuration, so a CI system can wait for it in the log (Testcontainers' log wait, a script's
 * grep) instead of polling /health.
 */
const READY_LINE = 'Waste Operations API sandbox ready';
/** How long a stopping server waits for deliveries in flight. */
const SHUTDOWN_GRACE_MS = 1_500;

/** The serve flags: flag and value, variable, what it does. The help's columns are computed from it. */
const SERVE_FLAGS: readonly (readonly [string, string, string])[] = [
  ['--port N', 'PORT', `where to listen (default ${DEFAULT_PORT}; 0 picks a free port)`],
  ['--host ADDR', 'HOST', 'address to listen on (default 127.0.0.1)'],
  ['--seed TEXT', 'SANDBOX_SEED', 'seed of the sample data (default the published seed)'],
  ['--rate-limit N|off', 'SANDBOX_RATE_LIMIT', 'requests per second per key and address (default 25)'],
  ['--keys FILE|JSON', 'SANDBOX_KEYS', 'key table replacing the default one'],
  ['--clock TIME', 'SANDBOX_CLOCK', 'pin the clock of every answer, e.g. 2026-03-02T17:00:00Z'],
  ['--webhook-url URL', 'SANDBOX_WEBHOOK_URL', 'where the events of writes go, e.g. http://127.0.0.1:4242/webhooks'],
  ['--webhook-secret S', 'SANDBOX_WEBHOOK_SECRET', 'whsec_… signing them (default: a new one, printed)'],
  ['--webhook-events L', 'SANDBOX_WEBHOOK_EVENTS', 'comma list of job.created, job.scheduled, container.received, or * (default)'],
  ['--faults LIST', 'SANDBOX_FAULTS', 'random faults for soak tests, e.g. api_error=0.02,delay=0.05:1500'],
  ['--trust-proxy N', 'SANDBOX_TRUST_PROXY', "your proxies in front: the address N back in X-Forwarded-For (default 0: the socket's)"],
  ['--log', '', 'one line per request (and delivery): time, method, path, status, ms, request id, fault'],
  ['--help, --version', '', ''],
];

export const SERVE_USAGE = `Serve flags (each with its environment variable):\n${columns(SERVE_FLAGS)}`;

/** Rows as aligned columns, two spaces apart, each column as wide as its widest cell. */
export function columns(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows.map((row) => `  ${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ')}`.trimEnd()).join('\n');
}

/**
 * SANDBOX_KEYS may be JSON text or the path of a JSON file. Text that opens like JSON (an array,
 * or the single object people often write first) is parsed as JSON, so its message says what is
 * wrong with the table rather than that no file has that name.
 */
function keyTableText(value: string | undefined, name: string): string | undefined {
  if (value === undefined || value.trim() === '' || /^[[{]/.test(value.trim())) return value;
  try {
    return readFileSync(value, 'utf8');
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'there is no such file' : (error as Error).message;
    throw new UsageError(
      `${name}: cannot read the file ${value} (${why}); give the path of a JSON key table, or the table itself, such as [{"key":"svc_test_mine","account":"A","scopes":"*"}]`,
    );
  }
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
 * Wraps the app so each answer prints `2026-03-02T17:00:00.123Z GET /v1/jobs 200 1.4ms req_…`
 * (the time in UTC, ISO 8601). Headers are never printed, so neither is the API key.
 * An answer that never reached the client is not logged as if it had (issue #35): the status is
 * nginx's for what happened, and a note says which answer was not sent:
 * - 499: the client closed the connection first (it gave up on a `delay`);
 * - 444: the connection was reset with no answer (`reset_after_write`).
 */
function withRequestLog(fetch: FetchHandler): FetchHandler {
  return async (request, env) => {
    const started = performance.now();
    const response = await fetch(request, env);
    const ms = (performance.now() - started).toFixed(1);
    const incoming = (env as { incoming?: IncomingMessage } | undefined)?.incoming;
    // The method as it arrived: the Node server hands a HEAD to the app as its GET.
    const method = incoming?.method ?? request.method;
    const line = (status: number, id: string | null | undefined, note = '') =>
      console.log(`${new Date().toISOString()} ${method} ${loggedPath(request.url)} ${status} ${ms}ms ${id ?? '-'}${note}`);
    // Neither answer is written, so its headers can be read without changing any bytes sent.
    if (isLostAnswer(response)) {
      line(444, response.headers.get('Request-Id'), ` connection reset by reset_after_write; its ${response.status} answer not sent`);
      return response;
    }
    if (incoming?.socket.destroyed === true) {
      line(499, response.headers.get('Request-Id'), ` client closed the connection first; its ${response.status} answer not sent`);
      return response;
    }
    // Not response.headers: reading it makes @hono/node-server write the names lower-cased and
    // sorted, so --log would change the answer's bytes (issue #18). The ID is read as written.
    // A failure made on purpose says so, as the Workers log line does (src/http/request-log.ts).
    const fault = (value: string | null | undefined) => (value == null ? '' : ` fault=${value}`);
    if (!whenHeadWritten(env, (status, header) => line(status, header('Request-Id'), fault(header('Sandbox-Fault')))))
      line(response.status, response.headers.get('Request-Id'), fault(response.headers.get('Sandbox-Fault')));
    return response;
  };
}

/** Why the server could not listen, in words that say which flag to change. */
function listenProblem(error: NodeJS.ErrnoException, port: number, hostname: string, hostName: string): string {
  switch (error.code) {
    case 'EADDRINUSE':
      return `Port ${port} on ${hostname} is in use; choose another with --port.`;
    case 'EACCES':
      return `Port ${port} on ${hostname} needs privileges this user lacks; choose a port above 1023 with --port.`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
    case 'EADDRNOTAVAIL':
      return `${hostName} "${hostname}" is not an address of this machine, so the sandbox cannot listen on it; use 127.0.0.1 (this machine only, the default), 0.0.0.0 (every network interface) or one of this machine's addresses.`;
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
      faults: { type: 'string' },
      'trust-proxy': { type: 'string' },
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

  // Each variable from its flag, else from the environment; a message names the one that gave it.
  const sources: ConfigSources = {};
  const flagged = new Set<Variable>();
  for (const [variable, flag] of Object.entries(VARIABLES) as [Variable, string][]) {
    const fromFlag = flags[flag.slice(2) as keyof typeof flags] as string | undefined;
    if (fromFlag !== undefined) flagged.add(variable);
    sources[variable] = fromFlag ?? process.env[variable];
  }
  let config: SandboxConfig;
  try {
    sources.SANDBOX_KEYS = keyTableText(sources.SANDBOX_KEYS, flagged.has('SANDBOX_KEYS') ? '--keys' : 'SANDBOX_KEYS');
    config = readText(sources, flagged);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
  const portText = flags.port ?? process.env.PORT ?? String(DEFAULT_PORT);
  const port = Number(portText);
  if (!/^\d{1,5}$/.test(portText.trim()) || port > 65535)
    throw new UsageError(`${flags.port === undefined ? 'PORT' : '--port'} must be a port number from 0 to 65535, not "${portText}"`);
  const hostname = flags.host ?? process.env.HOST ?? '127.0.0.1';
  // Node only (Workers take CF-Connecting-IP), so not a setting of the shared configuration. An
  // empty variable counts as not set, as the others do.
  const trustProxyText = flags['trust-proxy'] ?? (process.env.SANDBOX_TRUST_PROXY?.trim() || undefined);
  const trustProxy =
    trustProxyText === undefined
      ? 0
      : parseTrustProxy(trustProxyText, flags['trust-proxy'] === undefined ? 'SANDBOX_TRUST_PROXY' : '--trust-proxy');
  if (typeof trustProxy === 'string') throw new UsageError(trustProxy);

  // The events of writes: signed with the given secret, or with one made now and printed below.
  const webhook = config.webhook === null ? undefined : signedTarget(config.webhook);
  const dispatcher =
    webhook === undefined
      ? undefined
      : new WebhookDispatcher(webhook, {
          userAgent: `waste-operations-sandbox/${VERSION}`,
          ...(flags.log
            ? { onAttempt: (event, attempt) => console.log(`${new Date().toISOString()} ${describeDelivery(event, attempt)}`) }
            : {}),
        });
  const app = createApp(config, { clientAddress: clientAddressOf(trustProxy), docsAssets: nodeDocsAssets(), events: dispatcher ?? null });
  const fetch: FetchHandler = flags.log ? withRequestLog(app.fetch) : app.fetch;

  // Headers within 10 s, a whole request within 30 s, swept every second (src/node-server.ts).
  const server = startNodeServer(fetch, { port, hostname, rateLimitPolicy: rateLimitPolicy(config.rateLimit) }, (info) => {
    const rate = config.rateLimit === null ? 'off' : `${config.rateLimit}/s`;
    const origin = `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${info.port}`;
    console.log(`Waste Operations API sandbox on ${origin} (seed ${config.seed}, rate limit ${rate})`);
    console.log(`Docs: ${origin}/docs`);
    if (config.clock !== null) console.log(`Clock pinned at ${timestamp(config.clock)}: the same request gets the same answer`);
    if (config.faults !== null)
      console.log(`Random faults on /v1 requests: ${describeRandomFaults(config.faults)} (docs/testing-retries.md)`);
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
    console.log(READY_LINE);
  });
  server.once('error', (error: NodeJS.ErrnoException) => {
    console.error(listenProblem(error, port, hostname, flags.host === undefined ? 'HOST' : '--host'));
    process.exit(1);
  });
  // Deliveries still in flight get a short grace, never more: a receiver that is down must not
  // hold a CI job's shutdown.
  const stop = () => {
    const closed = new Promise((resolve) => server.close(resolve));
    // What the grace did not deliver is said before the process ends, never lost in silence.
    const exit = () => {
      dispatcher?.reportAbandoned();
      process.exit(0);
    };
    void Promise.all([closed, dispatcher?.idle(SHUTDOWN_GRACE_MS)]).then(exit);
    setTimeout(exit, SHUTDOWN_GRACE_MS + 500).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return undefined;
}
