// The Node entry: `npm start`. Reads configuration from the environment and CLI flags (the
// same names as SANDBOX.md's "Configuration"), builds the app and listens on loopback.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createApp } from './app.js';
import { readConfig } from './config.js';
import { nodeDocsAssets } from './docs/node-assets.js';
import { socketAddress, startNodeServer } from './node-server.js';

export const DEFAULT_PORT = 8787;

const { values: flags } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    seed: { type: 'string' },
    'rate-limit': { type: 'string' },
    keys: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
  strict: true,
});

if (flags.help) {
  console.log(`Waste Operations API sandbox

  --port N          PORT          where to listen (default ${DEFAULT_PORT})
  --host ADDR       HOST          address to listen on (default 127.0.0.1)
  --seed TEXT       SANDBOX_SEED  seed of the sample data
  --rate-limit N    SANDBOX_RATE_LIMIT  requests/second per key and address, or "off"
  --keys FILE|JSON  SANDBOX_KEYS  key table replacing the default one`);
  process.exit(0);
}

/** SANDBOX_KEYS may be JSON text or the path of a JSON file. */
function keyTableText(value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '' || value.trim().startsWith('[')) return value;
  return readFileSync(value, 'utf8');
}

function main(): void {
  const config = readConfig({
    SANDBOX_SEED: flags.seed ?? process.env.SANDBOX_SEED,
    SANDBOX_RATE_LIMIT: flags['rate-limit'] ?? process.env.SANDBOX_RATE_LIMIT,
    SANDBOX_KEYS: keyTableText(flags.keys ?? process.env.SANDBOX_KEYS),
  });
  const port = Number(flags.port ?? process.env.PORT ?? DEFAULT_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, not ${flags.port ?? process.env.PORT}`);
  const hostname = flags.host ?? process.env.HOST ?? '127.0.0.1';

  const app = createApp(config, { clientAddress: socketAddress, docsAssets: nodeDocsAssets() });

  // Headers within 10 s, a whole request within 30 s, swept every second (src/node-server.ts).
  const server = startNodeServer(app.fetch, { port, hostname }, (info) => {
    const rate = config.rateLimit === null ? 'off' : `${config.rateLimit}/s`;
    console.log(`Waste Operations API sandbox on http://${hostname}:${info.port} (seed ${config.seed}, rate limit ${rate})`);
    console.log(`Try: curl -H 'Authorization: Bearer svc_test_sandbox_public' 'http://${hostname}:${info.port}/v1/jobs?limit=2'`);
  });
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

try {
  main();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
