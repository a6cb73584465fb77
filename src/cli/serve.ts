// `waste-operations-sandbox [serve]` and `node dist/server.js`: reads configuration from flags
// and the environment (the names of the published "Configuration" table), builds the app and
// listens, on loopback unless told otherwise.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createApp } from '../app.js';
import { readConfig } from '../config.js';
import { nodeDocsAssets } from '../docs/node-assets.js';
import { socketAddress, startNodeServer } from '../node-server.js';
import { UsageError } from './usage-error.js';
import { VERSION } from './version.js';

export const DEFAULT_PORT = 8787;

export const SERVE_USAGE = `Serve flags (each with its environment variable):
  --port N            PORT                where to listen (default ${DEFAULT_PORT}; 0 picks a free port)
  --host ADDR         HOST                address to listen on (default 127.0.0.1)
  --seed TEXT         SANDBOX_SEED        seed of the sample data (default the published seed)
  --rate-limit N|off  SANDBOX_RATE_LIMIT  requests per second per key and address (default 25)
  --keys FILE|JSON    SANDBOX_KEYS        key table replacing the default one
  --clock TIME        SANDBOX_CLOCK       pin the clock of every answer, e.g. 2026-03-02T17:00:00Z
  --log                                   one line per request: method, path, status, ms, request id
  --help, --version`;

/** SANDBOX_KEYS may be JSON text or the path of a JSON file. */
function keyTableText(value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '' || value.trim().startsWith('[')) return value;
  try {
    return readFileSync(value, 'utf8');
  } catch {
    throw new UsageError(`--keys / SANDBOX_KEYS: cannot read the file ${value}; give a JSON key table or the path of one`);
  }
}

/** A path as a log line shows it: the query left out (it may be long), cut at 200 characters. */
function loggedPath(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  const end = url.indexOf('?', start);
  const path = url.slice(start, end === -1 ? undefined : end);
  return path.length <= 200 ? path : `${path.slice(0, 200)}…`;
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
    console.log(`${request.method} ${loggedPath(request.url)} ${response.status} ${ms}ms ${response.headers.get('Request-Id') ?? '-'}`);
    return response;
  };
}

/** Starts the server; resolves to an exit code only when it does not start one (--help, --version). */
export function serve(argv: readonly string[]): number | undefined {
  const { values: flags } = parseArgs({
    args: [...argv],
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      seed: { type: 'string' },
      'rate-limit': { type: 'string' },
      keys: { type: 'string' },
      clock: { type: 'string' },
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
    });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const portText = flags.port ?? process.env.PORT ?? String(DEFAULT_PORT);
  const port = Number(portText);
  if (!/^\d{1,5}$/.test(portText.trim()) || port > 65535)
    throw new UsageError(`--port / PORT must be a port number from 0 to 65535, not "${portText}"`);
  const hostname = flags.host ?? process.env.HOST ?? '127.0.0.1';

  const app = createApp(config, { clientAddress: socketAddress, docsAssets: nodeDocsAssets() });
  const fetch: FetchHandler = flags.log ? withRequestLog(app.fetch) : app.fetch;

  // Headers within 10 s, a whole request within 30 s, swept every second (src/node-server.ts).
  const server = startNodeServer(fetch, { port, hostname }, (info) => {
    const rate = config.rateLimit === null ? 'off' : `${config.rateLimit}/s`;
    const origin = `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${info.port}`;
    console.log(`Waste Operations API sandbox on ${origin} (seed ${config.seed}, rate limit ${rate})`);
    console.log(`Docs: ${origin}/docs`);
    console.log(`Try: curl -H 'Authorization: Bearer svc_test_sandbox_public' '${origin}/v1/jobs?limit=2'`);
  });
  server.once('error', (error: NodeJS.ErrnoException) => {
    console.error(error.code === 'EADDRINUSE' ? `Port ${port} on ${hostname} is in use; choose another with --port.` : error.message);
    process.exit(1);
  });
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return undefined;
}
