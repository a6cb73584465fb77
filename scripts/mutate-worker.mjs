// `npm run mutate:worker`: mutation testing of the Worker's own files (src/worker.ts and
// src/worker/*.ts), which StrykerJS cannot measure: it switches its mutants on inside the Node test
// process, and the Worker runs in workerd (the @cloudflare/vitest-pool-workers project and the
// deployed bundle under Miniflare). So the mutations are written here by hand, in the manner of
// Stryker's mutators (a condition made true or false, `>` made `>=`, a string emptied, a block
// emptied, a constant changed, an await dropped), each applied to a copy of the project in the OS
// temporary directory (never to the checkout, where other work runs tests), and the suites that
// reach the Worker run against it:
//   1. the workerd pool (test/workers/**: vitest --project workers), the sources in workerd;
//   2. only if that passed, the Node suites that load the bundle as `wrangler deploy --dry-run`
//      builds it and talk to it over Miniflare's real HTTP (test/deployed-worker.ts's users).
// A mutation is killed when a test fails (or a stage times out), survived when both pass.
// Mutations no client can tell apart from the code are listed with `equivalent` and the argument;
// they are not run (`--equivalent` runs them too) and are reported apart, outside the score.
// docs/operations.md ("Mutation testing") records the result.
//
//   node scripts/mutate-worker.mjs [--only <text>]… [--equivalent] [--timeout <s>] [--list] [--keep]
//     --only <text>  run the mutations whose id contains the text (repeatable)
//     --equivalent   run the mutations recorded as equivalent too, to check they still survive
//     --timeout <s>  the time-out of each stage (default: 60 s + 3 × the unmutated run's)
//     --list         print the mutations and exit
//     --keep         keep the temporary copy (its path is printed)
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The mutations: `file`, the exact text `find` (found exactly once in it), its `replace`ment, and
 * what the mutation changes. `equivalent` holds the argument for one no client can tell apart.
 */
const MUTATIONS = [
  // src/worker.ts: the entry point.
  {
    id: 'worker:start-build-emptied',
    file: 'src/worker.ts',
    find: 'try {\n  appFor(env as unknown as WorkerEnv);\n} catch {}',
    replace: 'try {\n} catch {}',
    change: 'block emptied: the deployed configuration’s app is no longer built while the isolate starts',
    equivalent:
      'the first request builds the same app instead (appFor), from the prebuilt data; only the CPU time of the start and of the first request move, which no answer shows',
  },
  {
    id: 'worker:start-error-thrown',
    file: 'src/worker.ts',
    find: '} catch {}',
    replace: '} catch (error) {\n  throw error;\n}',
    change: 'catch block rethrows: a variable that cannot be used fails the isolate’s start',
  },
  {
    id: 'worker:config-error-not-answered',
    file: 'src/worker.ts',
    find: 'return answered(request, configurationError(error, request), started);',
    replace: 'return configurationError(error, request);',
    change: 'the misconfiguration’s 500 skips the log line and the drain',
  },
  {
    id: 'worker:answer-always-promise',
    file: 'src/worker.ts',
    find: 'answer instanceof Promise ?',
    replace: 'true ?',
    change: 'condition made true: a synchronous answer is treated as a promise',
  },
  {
    id: 'worker:answer-never-promise',
    file: 'src/worker.ts',
    find: 'answer instanceof Promise ?',
    replace: 'false ?',
    change: 'condition made false: a promise is logged and drained as if it were the response',
  },
  {
    id: 'worker:log-line-dropped',
    file: 'src/worker.ts',
    find: 'console.log(JSON.stringify(requestLogEntry(request.method, request.url, response, performance.now() - started)));',
    replace: '',
    change: 'statement removed: no log line for the operator',
  },
  {
    id: 'worker:log-ms-sign',
    file: 'src/worker.ts',
    find: 'performance.now() - started',
    replace: 'performance.now() + started',
    change: '`-` made `+`: ms is no longer the time spent waiting',
  },
  {
    id: 'worker:drain-skipped',
    file: 'src/worker.ts',
    find: 'if (request.body === null || request.bodyUsed) return response;',
    replace: 'return response;',
    change: 'condition made true: an unread body is never read before the answer',
  },
  {
    id: 'worker:drain-used-guard-dropped',
    file: 'src/worker.ts',
    find: 'if (request.body === null || request.bodyUsed) return response;',
    replace: 'if (request.body === null) return response;',
    change: '`|| request.bodyUsed` removed: a body the app read is drained again',
    equivalent:
      'a body the app read is a closed stream: drained() gets a reader whose first read is done, or a TypeError it catches; the same answer follows',
  },
  {
    id: 'worker:drain-not-awaited',
    file: 'src/worker.ts',
    find: 'return drained(request).then(() => response);',
    replace: 'void drained(request);\n  return response;',
    change: 'await dropped: the answer goes before the body is read',
  },
  {
    id: 'worker:declared-bound',
    file: 'src/worker.ts',
    find: 'if (declared > MAX_BODY_BYTES) {',
    replace: 'if (declared >= MAX_BODY_BYTES) {',
    change: '`>` made `>=`: a body declared at exactly 1 MiB is refused unread',
  },
  {
    id: 'worker:declared-branch-emptied',
    file: 'src/worker.ts',
    find: '{\n      await body.cancel();\n      return;\n    }',
    replace: '{\n    }',
    change: 'block emptied: a body declared over 1 MiB is read up to 1 MiB instead of refused',
  },
  {
    id: 'worker:declared-cancel-dropped',
    file: 'src/worker.ts',
    find: 'await body.cancel();',
    replace: '',
    change: 'statement removed: a body declared over 1 MiB is left hanging, not cancelled',
  },
  {
    id: 'worker:read-done-dropped',
    file: 'src/worker.ts',
    find: 'if (done) return;',
    replace: '',
    change: 'statement removed: the read loop goes on past the end of the body',
    equivalent:
      'past the end, read() gives no value, so value.byteLength throws a TypeError that the catch ends the loop with: the same bytes are read and the same answer follows',
  },
  {
    id: 'worker:read-size-sign',
    file: 'src/worker.ts',
    find: 'size += value.byteLength;',
    replace: 'size -= value.byteLength;',
    change: '`+=` made `-=`: an undeclared body is read to its end however large',
  },
  {
    id: 'worker:read-size-bound',
    file: 'src/worker.ts',
    find: 'if (size > MAX_BODY_BYTES) {',
    replace: 'if (size >= MAX_BODY_BYTES) {',
    change: '`>` made `>=`: a body of exactly 1 MiB is cancelled at its last byte',
  },
  {
    id: 'worker:read-cancel-dropped',
    file: 'src/worker.ts',
    find: 'await reader.cancel();',
    replace: '',
    change: 'statement removed: a body past 1 MiB is left hanging, not cancelled',
  },
  {
    id: 'worker:drain-error-thrown',
    file: 'src/worker.ts',
    find: '} catch {\n    // The client went away mid-body: there is nothing left to read, and the answer stands.\n  }',
    replace: '} catch (error) {\n    throw error;\n  }',
    change: 'catch block rethrows: a client gone mid-body fails the answer',
  },
  {
    id: 'worker:config-message-prefix',
    file: 'src/worker.ts',
    find: '`The sandbox is misconfigured: ${',
    replace: '`${',
    change: 'string emptied: the 500’s message loses "The sandbox is misconfigured: "',
  },
  {
    id: 'worker:config-message-of-error',
    file: 'src/worker.ts',
    find: 'error instanceof Error ? error.message : String(error)',
    replace: 'String(error)',
    change: 'condition made false: the message gets the error’s class name before its text',
  },
  {
    id: 'worker:config-console-error-dropped',
    file: 'src/worker.ts',
    find: 'console.error(message);',
    replace: '',
    change: 'statement removed: the misconfiguration is not written to the log',
  },
  {
    id: 'worker:config-cors-always',
    file: 'src/worker.ts',
    find: "request.headers.has('Origin') ? CORS_HEADERS : {}",
    replace: 'CORS_HEADERS',
    change: 'condition made true: CORS headers on the 500 without Origin',
  },
  {
    id: 'worker:config-cors-never',
    file: 'src/worker.ts',
    find: "request.headers.has('Origin') ? CORS_HEADERS : {}",
    replace: '{}',
    change: 'condition made false: no CORS headers on the 500 for a browser',
  },
  {
    id: 'worker:config-policy-dropped',
    file: 'src/worker.ts',
    find: "'RateLimit-Policy': rateLimitPolicy(null),",
    replace: '',
    change: 'property removed: the 500 has no RateLimit-Policy',
  },
  {
    id: 'worker:config-request-id-dropped',
    file: 'src/worker.ts',
    find: "'Request-Id': requestId,",
    replace: '',
    change: 'property removed: the 500 has no Request-Id header',
  },

  // src/worker/apps.ts: the app of each configuration.
  {
    id: 'apps:cache-key-constant',
    file: 'src/worker/apps.ts',
    find: 'JSON.stringify(Object.values(sources))',
    replace: "''",
    change: 'expression made a constant: every configuration gets the first one’s app',
  },
  {
    id: 'apps:cache-bypassed',
    file: 'src/worker/apps.ts',
    find: 'if (app === undefined) {',
    replace: 'if (true) {',
    change: 'condition made true: a new app for every request',
  },
  {
    id: 'apps:cache-bound-dropped',
    file: 'src/worker/apps.ts',
    find: 'if (apps.size >= MAX_APPS) apps.clear();',
    replace: '',
    change: 'statement removed: the apps of an isolate are no longer bounded',
    equivalent:
      'a deployed Worker has one configuration (wrangler.toml’s [vars]), so its isolates hold one app; the bound only limits the memory of tests that hand one isolate many variables',
  },
  {
    id: 'apps:max-apps',
    file: 'src/worker/apps.ts',
    find: 'const MAX_APPS = 8;',
    replace: 'const MAX_APPS = 1;',
    change: 'constant changed: one app kept per isolate',
    equivalent: 'as apps:cache-bound-dropped: a deployed Worker has one configuration, so it keeps one app either way',
  },
  {
    id: 'apps:webhook-secret-check-false',
    file: 'src/worker/apps.ts',
    find: 'if (webhook !== null && webhook.secret === undefined) {',
    replace: 'if (false) {',
    change: 'condition made false: a webhook URL without a secret is accepted',
  },
  {
    id: 'apps:webhook-secret-check-true',
    file: 'src/worker/apps.ts',
    find: 'if (webhook !== null && webhook.secret === undefined) {',
    replace: 'if (true) {',
    change: 'condition made true: every configuration is refused',
  },
  {
    id: 'apps:webhook-secret-message',
    file: 'src/worker/apps.ts',
    find: "'SANDBOX_WEBHOOK_URL is set but SANDBOX_WEBHOOK_SECRET is not: on Workers, set the whsec_ secret your receiver checks'",
    replace: "''",
    change: 'string emptied: the 500 does not say which variable is missing',
  },
  {
    id: 'apps:rate-limit-always-off',
    file: 'src/worker/apps.ts',
    find: 'config.rateLimit === null ? null :',
    replace: 'true ? null :',
    change: 'condition made true: no rate limit',
  },
  {
    id: 'apps:rate-limit-never-off',
    file: 'src/worker/apps.ts',
    find: 'config.rateLimit === null ? null :',
    replace: 'false ? null :',
    change: 'condition made false: SANDBOX_RATE_LIMIT=off still asks a bucket',
  },
  {
    id: 'apps:client-address-header',
    file: 'src/worker/apps.ts',
    find: "c.req.header('CF-Connecting-IP')",
    replace: "c.req.header('')",
    change: 'string emptied: every client has the same address',
  },
  {
    id: 'apps:client-address-fallback',
    file: 'src/worker/apps.ts',
    find: "?? 'unknown'",
    replace: "?? ''",
    change: 'string emptied: the address of a request without CF-Connecting-IP',
    equivalent:
      'Cloudflare sets CF-Connecting-IP on every request; without it, every request shares one address whatever its text, which only names buckets and objects (never an answer)',
  },
  {
    id: 'apps:docs-assets-never',
    file: 'src/worker/apps.ts',
    find: 'env.ASSETS === undefined ? undefined :',
    replace: 'true ? undefined :',
    change: 'condition made true: /docs without Swagger UI’s files',
  },
  {
    id: 'apps:events-never',
    file: 'src/worker/apps.ts',
    find: 'webhook === null ? null :',
    replace: 'true ? null :',
    change: 'condition made true: SANDBOX_WEBHOOK_URL sends nothing',
  },
  {
    id: 'apps:assets-path-emptied',
    file: 'src/worker/apps.ts',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a template literal, as the file holds it
    find: '`https://assets.invalid/${name}`',
    replace: '`https://assets.invalid/`',
    change: 'string emptied: every file asked for by the wrong path',
  },
  {
    id: 'apps:assets-ok-ignored',
    file: 'src/worker/apps.ts',
    find: 'response.ok ? (response.body ?? undefined) : undefined',
    replace: '(response.body ?? undefined)',
    change: 'condition made true: a file the assets lack is served as their error page',
  },
  ...[
    'SANDBOX_SEED',
    'SANDBOX_RATE_LIMIT',
    'SANDBOX_CLOCK',
    'SANDBOX_WEBHOOK_URL',
    'SANDBOX_WEBHOOK_SECRET',
    'SANDBOX_WEBHOOK_EVENTS',
    'SANDBOX_FAULTS',
  ].map((name) => ({
    id: `apps:variable-dropped-${name}`,
    file: 'src/worker/apps.ts',
    find: `${name}: env.${name},`,
    replace: `${name}: undefined,`,
    change: `property emptied: ${name} is not read`,
  })),
  {
    id: 'apps:variable-dropped-SANDBOX_KEYS',
    file: 'src/worker/apps.ts',
    find: "SANDBOX_KEYS: typeof env.SANDBOX_KEYS === 'object' ? JSON.stringify(env.SANDBOX_KEYS) : env.SANDBOX_KEYS,",
    replace: 'SANDBOX_KEYS: undefined,',
    change: 'property emptied: SANDBOX_KEYS is not read',
  },
  {
    id: 'apps:keys-always-object',
    file: 'src/worker/apps.ts',
    find: "typeof env.SANDBOX_KEYS === 'object' ?",
    replace: 'true ?',
    change: 'condition made true: SANDBOX_KEYS as text is quoted again',
  },
  {
    id: 'apps:keys-never-object',
    file: 'src/worker/apps.ts',
    find: "typeof env.SANDBOX_KEYS === 'object' ?",
    replace: 'false ?',
    change: 'condition made false: SANDBOX_KEYS as a TOML table is passed as an object',
  },

  // src/worker/idempotency-object.ts: one Idempotency-Key's object.
  {
    id: 'idempotency-object:lease-shorter',
    file: 'src/worker/idempotency-object.ts',
    find: 'IN_FLIGHT_LEASE_MS = 60_000;',
    replace: 'IN_FLIGHT_LEASE_MS = 59_999;',
    change: 'constant changed: the in-flight lease is a millisecond short of 60 s',
  },
  {
    id: 'idempotency-object:lease-longer',
    file: 'src/worker/idempotency-object.ts',
    find: 'IN_FLIGHT_LEASE_MS = 60_000;',
    replace: 'IN_FLIGHT_LEASE_MS = 60_001;',
    change: 'constant changed: the in-flight lease is a millisecond past 60 s',
  },
  {
    id: 'idempotency-object:claim-expiry-edge',
    file: 'src/worker/idempotency-object.ts',
    find: 'if (row !== undefined && row.expires_at > now) {',
    replace: 'if (row !== undefined && row.expires_at >= now) {',
    change: '`>` made `>=`: a row still holds its key at its expiry',
  },
  {
    id: 'idempotency-object:claim-expiry-ignored',
    file: 'src/worker/idempotency-object.ts',
    find: 'if (row !== undefined && row.expires_at > now) {',
    replace: 'if (row !== undefined) {',
    change: 'condition removed: a row holds its key past its expiry (until the alarm)',
  },
  {
    id: 'idempotency-object:claim-row-ignored',
    file: 'src/worker/idempotency-object.ts',
    find: 'if (row !== undefined && row.expires_at > now) {',
    replace: 'if (false) {',
    change: 'condition made false: every claim is new',
  },
  {
    id: 'idempotency-object:claim-mismatch-dropped',
    file: 'src/worker/idempotency-object.ts',
    find: "if (row.fingerprint !== fingerprint) return { state: 'mismatch' };",
    replace: '',
    change: 'statement removed: another request with the key is never a conflict',
  },
  {
    id: 'idempotency-object:claim-in-flight-and',
    file: 'src/worker/idempotency-object.ts',
    find: 'row.status === null || row.body === null',
    replace: 'row.status === null && row.body === null',
    change: '`||` made `&&`',
    equivalent:
      'a row has both a status and a body or neither: #write takes them from one response or none, so either condition is true of the same rows',
  },
  {
    id: 'idempotency-object:claim-in-flight-dropped',
    file: 'src/worker/idempotency-object.ts',
    find: "if (row.status === null || row.body === null) return { state: 'in_flight' };",
    replace: '',
    change: 'statement removed: a claim in flight is replayed as an empty answer',
  },
  {
    id: 'idempotency-object:claim-replay-body',
    file: 'src/worker/idempotency-object.ts',
    find: 'response: { status: row.status, body: row.body }',
    replace: "response: { status: row.status, body: '' }",
    change: 'string emptied: a replay without its body',
  },
  {
    id: 'idempotency-object:claim-lease-sign',
    file: 'src/worker/idempotency-object.ts',
    find: 'now + IN_FLIGHT_LEASE_MS',
    replace: 'now - IN_FLIGHT_LEASE_MS',
    change: '`+` made `-`: a claim is expired as it is made',
  },
  {
    id: 'idempotency-object:claim-write-not-awaited',
    file: 'src/worker/idempotency-object.ts',
    find: 'await this.#write(fingerprint, null, now + IN_FLIGHT_LEASE_MS);',
    replace: 'void this.#write(fingerprint, null, now + IN_FLIGHT_LEASE_MS);',
    change: 'await dropped: the claim answers before its alarm is set',
    equivalent:
      'the row is written by a synchronous SQL call before #write’s first await, and the object’s output gate holds the claim’s answer until its storage writes (the alarm too) are done, awaited or not; a write that fails breaks the gate either way',
  },
  {
    id: 'idempotency-object:kept-shorter',
    file: 'src/worker/idempotency-object.ts',
    find: 'Date.now() + IDEMPOTENCY_TTL_MS',
    replace: 'Date.now() + IDEMPOTENCY_TTL_MS - 1',
    change: 'constant changed: an answer kept a millisecond short of 24 hours',
  },
  {
    id: 'idempotency-object:kept-longer',
    file: 'src/worker/idempotency-object.ts',
    find: 'Date.now() + IDEMPOTENCY_TTL_MS',
    replace: 'Date.now() + IDEMPOTENCY_TTL_MS + 1',
    change: 'constant changed: an answer kept a millisecond past 24 hours',
  },
  {
    id: 'idempotency-object:release-emptied',
    file: 'src/worker/idempotency-object.ts',
    find: 'async release(): Promise<void> {\n    await this.#forget();\n  }',
    replace: 'async release(): Promise<void> {}',
    change: 'block emptied: a 400 or 500 keeps the key in flight',
  },
  {
    id: 'idempotency-object:alarm-expiry-edge',
    file: 'src/worker/idempotency-object.ts',
    find: 'if (row !== undefined && row.expires_at > Date.now()) {',
    replace: 'if (row !== undefined && row.expires_at >= Date.now()) {',
    change: '`>` made `>=`: an alarm at the expiry reschedules instead of deleting',
  },
  {
    id: 'idempotency-object:alarm-never-reschedules',
    file: 'src/worker/idempotency-object.ts',
    find: 'if (row !== undefined && row.expires_at > Date.now()) {',
    replace: 'if (false) {',
    change: 'condition made false: an alarm always deletes, even before a later expiry',
  },
  {
    id: 'idempotency-object:alarm-reschedule-dropped',
    file: 'src/worker/idempotency-object.ts',
    find: 'await this.ctx.storage.setAlarm(row.expires_at);',
    replace: '',
    change: 'statement removed: an early alarm leaves no alarm behind',
  },
  {
    id: 'idempotency-object:alarm-falls-through',
    file: 'src/worker/idempotency-object.ts',
    find: 'await this.ctx.storage.setAlarm(row.expires_at);\n      return;',
    replace: 'await this.ctx.storage.setAlarm(row.expires_at);',
    change: 'return removed: an early alarm reschedules, then deletes anyway',
  },
  {
    id: 'idempotency-object:alarm-delete-dropped',
    file: 'src/worker/idempotency-object.ts',
    find: '      return;\n    }\n    await this.#forget();\n  }',
    replace: '      return;\n    }\n  }',
    change: 'statement removed: an alarm past the expiry deletes nothing',
  },
  {
    id: 'idempotency-object:write-insert-only',
    file: 'src/worker/idempotency-object.ts',
    find: 'INSERT OR REPLACE INTO',
    replace: 'INSERT INTO',
    change: 'string changed: the answer cannot replace the claim',
  },
  {
    id: 'idempotency-object:write-status-zero',
    file: 'src/worker/idempotency-object.ts',
    find: 'response?.status ?? null,',
    replace: 'response?.status ?? 0,',
    change: 'constant changed: a claim is stored with status 0',
    equivalent: 'a claim’s body is still null, which alone makes it in flight; a stored answer has its own status either way',
  },
  {
    id: 'idempotency-object:write-alarm-dropped',
    file: 'src/worker/idempotency-object.ts',
    find: 'await this.ctx.storage.setAlarm(expiresAt);',
    replace: '',
    change: 'statement removed: nothing deletes the object at its expiry',
  },
  {
    id: 'idempotency-object:forget-delete-dropped',
    file: 'src/worker/idempotency-object.ts',
    find: 'await this.ctx.storage.deleteAll();',
    replace: '',
    change: 'statement removed: release and alarm delete nothing',
  },
  {
    id: 'idempotency-object:forget-table-flag-kept',
    file: 'src/worker/idempotency-object.ts',
    find: 'this.#tableReady = false;',
    replace: '',
    change: 'statement removed: after a delete the table is believed to exist',
  },
  {
    id: 'idempotency-object:table-always-made',
    file: 'src/worker/idempotency-object.ts',
    find: 'if (this.#tableReady) return;',
    replace: '',
    change: 'statement removed: CREATE TABLE IF NOT EXISTS before every statement',
    equivalent: 'IF NOT EXISTS makes the repeated statement a no-op: the flag only saves a statement',
  },
  {
    id: 'idempotency-object:table-never-made',
    file: 'src/worker/idempotency-object.ts',
    find: 'if (this.#tableReady) return;',
    replace: 'return;',
    change: 'condition made true: the table is never created',
  },

  // src/worker/idempotency-store.ts: the store the app talks to.
  {
    id: 'idempotency-store:claim-unhashed',
    file: 'src/worker/idempotency-store.ts',
    find: '.claim(await sha256Hex(fingerprint))',
    replace: '.claim(fingerprint)',
    change: 'call removed: the object keeps the whole fingerprint, not its SHA-256',
  },
  {
    id: 'idempotency-store:complete-unhashed',
    file: 'src/worker/idempotency-store.ts',
    find: '.complete(await sha256Hex(fingerprint), response)',
    replace: '.complete(fingerprint, response)',
    change: 'call removed: the answer is stored under the fingerprint, the claim under its SHA-256',
  },
  {
    id: 'idempotency-store:complete-not-awaited',
    file: 'src/worker/idempotency-store.ts',
    find: 'await (await this.#object(key)).complete(',
    replace: 'void (await this.#object(key)).complete(',
    change: 'await dropped: the answer goes before it is stored',
  },
  {
    id: 'idempotency-store:release-emptied',
    file: 'src/worker/idempotency-store.ts',
    find: 'await (await this.#object(key)).release();',
    replace: '',
    change: 'statement removed: a 400 or 500 keeps the key in flight',
  },
  {
    id: 'idempotency-store:object-unnamed',
    file: 'src/worker/idempotency-store.ts',
    find: 'getByName(await idempotencyObjectName(key))',
    replace: 'getByName(key)',
    change: 'call removed: objects named by the key itself (the API key and address readable)',
  },
  {
    id: 'idempotency-store:kind-emptied',
    file: 'src/worker/idempotency-store.ts',
    find: "objectName('idempotency', key)",
    replace: "objectName('', key)",
    change: 'string emptied: object names lose their kind',
  },

  // src/worker/object-name.ts
  {
    id: 'object-name:prefix-dropped',
    file: 'src/worker/object-name.ts',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a template literal, as the file holds it
    find: 'return `${kind}:${await',
    replace: 'return `${await',
    change: 'string emptied: names are the bare digest, without `kind:`',
  },
  {
    id: 'object-name:digest-of-key-only',
    file: 'src/worker/object-name.ts',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a template literal, as the file holds it
    find: 'sha256Hex(`${kind}\\u0000${key}`)',
    replace: 'sha256Hex(key)',
    change: 'expression changed: the digest leaves out the kind',
  },

  // src/worker/rate-limit-object.ts: one bucket's object.
  {
    id: 'rate-limit-object:limit-change-ignored',
    file: 'src/worker/rate-limit-object.ts',
    find: 'this.#limiter === undefined || this.#perSecond !== perSecond',
    replace: 'this.#limiter === undefined',
    change: 'condition removed: a bucket keeps its first limit when the limit changes',
  },
  {
    id: 'rate-limit-object:bucket-every-take',
    file: 'src/worker/rate-limit-object.ts',
    find: 'this.#limiter === undefined || this.#perSecond !== perSecond',
    replace: 'true',
    change: 'condition made true: a full bucket for every request',
  },
  {
    id: 'rate-limit-object:limit-not-kept',
    file: 'src/worker/rate-limit-object.ts',
    find: 'this.#perSecond = perSecond;',
    replace: '',
    change: 'statement removed: the limit is forgotten, so every request gets a full bucket',
  },
  {
    id: 'rate-limit-object:max-buckets',
    file: 'src/worker/rate-limit-object.ts',
    find: 'maxBuckets: 1 }',
    replace: 'maxBuckets: 0 }',
    change: 'constant changed: the limiter keeps no bucket',
    equivalent:
      'the object’s limiter only ever holds its one key, which stays in place when it is there; with a bound of 0 the eviction finds nothing else to drop',
  },

  // src/worker/rate-limiter.ts: the limiter the app talks to.
  {
    id: 'rate-limiter:object-unnamed',
    file: 'src/worker/rate-limiter.ts',
    find: 'getByName(await rateLimitObjectName(bucket))',
    replace: 'getByName(bucket)',
    change: 'call removed: objects named by the Authorization header and address themselves',
  },
  {
    id: 'rate-limiter:limit-off-by-one',
    file: 'src/worker/rate-limiter.ts',
    find: 'object.take(this.#perSecond)',
    replace: 'object.take(this.#perSecond + 1)',
    change: '`+ 1`: one request a second more than configured',
  },
  {
    id: 'rate-limiter:kind-emptied',
    file: 'src/worker/rate-limiter.ts',
    find: "objectName('rate-limit', bucket)",
    replace: "objectName('', bucket)",
    change: 'string emptied: object names lose their kind',
  },

  // src/worker/sha256-hex.ts
  {
    id: 'sha256-hex:algorithm',
    file: 'src/worker/sha256-hex.ts',
    find: "'SHA-256'",
    replace: "'SHA-1'",
    change: 'string changed: SHA-1 instead of SHA-256',
  },
  {
    id: 'sha256-hex:padding',
    file: 'src/worker/sha256-hex.ts',
    find: "padStart(2, '0')",
    replace: "padStart(1, '0')",
    change: 'constant changed: bytes below 16 written as one digit',
  },
  {
    id: 'sha256-hex:last-byte-only',
    file: 'src/worker/sha256-hex.ts',
    find: 'hex += ',
    replace: 'hex = ',
    change: '`+=` made `=`: only the last byte is kept',
  },
];

/** Files of the Worker with no code that runs: nothing to mutate. */
const NO_RUNTIME_CODE = { 'src/worker/env.ts': 'the bindings’ interface: types only' };

/** The two stages, in order: the second runs only when the first passed. */
const STAGES = [
  { name: 'workers', args: ['--project', 'workers'] },
  {
    name: 'deployed',
    args: ['--project', 'node', 'test/worker-parity.test.ts', 'test/worker-tenants.test.ts', 'test/workerd-http/workerd-http.test.ts'],
  },
];

/** Left out of the copy: what is installed, built, or recorded elsewhere. */
const NOT_COPIED = new Set([
  'node_modules',
  'dist',
  '.git',
  '.stryker',
  '.stryker-tmp',
  '.wrangler',
  'reports',
  'coverage',
  'test-results',
]);

function parseArguments(argv) {
  const options = { only: [], equivalent: false, timeoutMs: undefined, list: false, keep: false };
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i];
    if (argument === '--only') options.only.push(argv[++i] ?? '');
    else if (argument === '--equivalent') options.equivalent = true;
    else if (argument === '--timeout') options.timeoutMs = Number(argv[++i]) * 1000;
    else if (argument === '--list') options.list = true;
    else if (argument === '--keep') options.keep = true;
    else throw new Error(`unknown argument ${argument}; see the head of scripts/mutate-worker.mjs`);
  }
  if (options.timeoutMs !== undefined && !(options.timeoutMs > 0)) throw new Error('--timeout takes a number of seconds');
  return options;
}

/** Every mutation's text is found exactly once, ids are unique, and every file of the Worker is covered. */
function checkMutations(sources) {
  const problems = [];
  const ids = new Set();
  for (const mutation of MUTATIONS) {
    if (ids.has(mutation.id)) problems.push(`${mutation.id}: the id is used twice`);
    ids.add(mutation.id);
    const text = sources.get(mutation.file);
    if (text === undefined) {
      problems.push(`${mutation.id}: ${mutation.file} is not one of the Worker's files`);
      continue;
    }
    const count = text.split(mutation.find).length - 1;
    if (count !== 1) problems.push(`${mutation.id}: its text is found ${count} times in ${mutation.file}, not once`);
    if (mutation.find === mutation.replace) problems.push(`${mutation.id}: the replacement is the text itself`);
  }
  for (const file of sources.keys()) {
    if (!(file in NO_RUNTIME_CODE) && !MUTATIONS.some((mutation) => mutation.file === file)) {
      problems.push(`${file}: no mutation, and not listed as having no code that runs`);
    }
  }
  return problems;
}

function workerFiles() {
  const files = [
    'src/worker.ts',
    ...readdirSync(join(ROOT, 'src/worker'))
      .filter((name) => name.endsWith('.ts'))
      .map((name) => `src/worker/${name}`),
  ];
  return new Map(files.map((file) => [file, readFileSync(join(ROOT, file), 'utf8')]));
}

/** The project in a temporary folder, node_modules linked: tests there never meet the checkout's. */
function copyProject() {
  const copy = mkdtempSync(join(tmpdir(), 'mutate-worker-'));
  for (const entry of readdirSync(ROOT)) {
    if (NOT_COPIED.has(entry) || entry.endsWith('.tgz')) continue;
    cpSync(join(ROOT, entry), join(copy, entry), { recursive: true });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
  return copy;
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const duration = (ms) => {
  const total = Math.round(ms / 1000);
  return total < 60 ? `${total} s` : `${Math.floor(total / 60)} min ${total % 60} s`;
};

let running;

/** One vitest run in the copy: passed, failed (with the first failing test) or timeout. */
function runStage(copy, stage, timeoutMs) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [join(copy, 'node_modules/vitest/vitest.mjs'), 'run', '--bail', '1', ...stage.args], {
      cwd: copy,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', CI: '1' },
    });
    running = child;
    let output = '';
    const keep = (chunk) => {
      output = (output + chunk.toString()).slice(-400_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      running = undefined;
      const ms = performance.now() - started;
      if (timedOut) resolve({ outcome: 'timeout', ms, detail: `${stage.name}: no end within ${seconds(timeoutMs)}`, output });
      else if (code === 0) resolve({ outcome: 'passed', ms, output });
      else resolve({ outcome: 'failed', ms, detail: `${stage.name}: ${firstFailure(output)}`, output });
    });
  });
}

function killGroup(child) {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {}
}

/** The first failing test vitest names, else its first error line. */
function firstFailure(output) {
  const lines = output.split('\n');
  const failed = lines.find((line) => /^\s*FAIL\s/.test(line));
  if (failed !== undefined) return failed.trim().replace(/^FAIL\s+/, '');
  const error = lines.find((line) => /Error|error/.test(line));
  return error?.trim().slice(0, 200) ?? 'vitest failed';
}

/** Runs the stages in order until one fails: the first failure kills the mutation. */
async function runStages(copy, timeouts) {
  let ms = 0;
  for (const [index, stage] of STAGES.entries()) {
    const result = await runStage(copy, stage, timeouts[index]);
    ms += result.ms;
    if (result.outcome !== 'passed') return { ...result, ms };
  }
  return { outcome: 'passed', ms };
}

async function main() {
  const options = parseArguments(process.argv.slice(2));
  const sources = workerFiles();
  const problems = checkMutations(sources);
  if (problems.length > 0) {
    console.error(`scripts/mutate-worker.mjs: the list does not fit the sources:\n  ${problems.join('\n  ')}`);
    process.exit(2);
  }
  const chosen = MUTATIONS.filter((mutation) => options.only.length === 0 || options.only.some((text) => mutation.id.includes(text)));
  const toRun = chosen.filter((mutation) => options.equivalent || mutation.equivalent === undefined);
  if (options.list) {
    for (const mutation of chosen) {
      console.log(`${mutation.id}  ${mutation.change}${mutation.equivalent === undefined ? '' : `  [equivalent: ${mutation.equivalent}]`}`);
    }
    return;
  }
  if (chosen.length === 0) {
    console.error(`no mutation's id contains ${options.only.map((text) => JSON.stringify(text)).join(' or ')}`);
    process.exit(2);
  }

  const began = performance.now();
  const copy = copyProject();
  const cleanUp = () => {
    if (running !== undefined) killGroup(running);
    if (options.keep) console.log(`the copy is kept in ${copy}`);
    else rmSync(copy, { recursive: true, force: true });
  };
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      cleanUp();
      process.exit(130);
    });
  }

  try {
    console.log(
      `mutate:worker: ${toRun.length} mutations to run in ${copy} (stages: ${STAGES.map((stage) => stage.name).join(', then ')})`,
    );
    // The suites must pass as they are, and their time sets the time-outs.
    const baseline = [];
    for (const stage of STAGES) {
      const result = await runStage(copy, stage, options.timeoutMs ?? 600_000);
      if (result.outcome !== 'passed') {
        console.error(`the unmutated run did not pass, so nothing can be measured: ${result.detail}\n${result.output.slice(-4000)}`);
        process.exitCode = 2;
        return;
      }
      baseline.push(result.ms);
    }
    const timeouts = baseline.map((ms) => options.timeoutMs ?? 60_000 + 3 * ms);
    console.log(
      `unmutated: ${STAGES.map((stage, index) => `${stage.name} ${seconds(baseline[index])}`).join(', ')}; time-outs ${timeouts.map(seconds).join(', ')}`,
    );

    const results = [];
    for (const [index, mutation] of toRun.entries()) {
      const path = join(copy, mutation.file);
      const original = sources.get(mutation.file);
      writeFileSync(
        path,
        original.replace(mutation.find, () => mutation.replace),
      );
      let result;
      try {
        result = await runStages(copy, timeouts);
      } finally {
        writeFileSync(path, original);
      }
      const status = result.outcome === 'passed' ? 'survived' : result.outcome === 'timeout' ? 'killed (timeout)' : 'killed';
      results.push({ mutation, status });
      const counter = `[${String(index + 1).padStart(String(toRun.length).length)}/${toRun.length}]`;
      const marked = mutation.equivalent === undefined ? '' : ' (recorded as equivalent)';
      console.log(
        `${counter} ${status.padEnd(16)} ${seconds(result.ms).padStart(7)}  ${mutation.id}${marked}: ${mutation.change}${result.detail === undefined ? '' : `\n${' '.repeat(counter.length + 27)}by ${result.detail}`}`,
      );
    }

    const scored = results.filter((entry) => entry.mutation.equivalent === undefined);
    const killed = scored.filter((entry) => entry.status !== 'survived');
    const survived = scored.filter((entry) => entry.status === 'survived');
    const equivalent = chosen.filter((mutation) => mutation.equivalent !== undefined);
    console.log('');
    console.log(
      `killed ${killed.length}/${scored.length} (${killed.filter((entry) => entry.status === 'killed (timeout)').length} by time-out), score ${scored.length === 0 ? '-' : `${((100 * killed.length) / scored.length).toFixed(1)}%`}, ${duration(performance.now() - began)}`,
    );
    if (survived.length > 0) {
      console.log(`survived (${survived.length}):`);
      for (const { mutation } of survived) console.log(`  ${mutation.id}: ${mutation.change}`);
    }
    if (equivalent.length > 0) {
      console.log(`equivalent, outside the score (${equivalent.length}${options.equivalent ? ', run' : ', not run'}):`);
      for (const mutation of equivalent) {
        const ran = results.find((entry) => entry.mutation === mutation);
        const note = ran === undefined ? '' : ran.status === 'survived' ? ' [survived]' : ` [${ran.status}: not equivalent after all]`;
        console.log(`  ${mutation.id}${note}: ${mutation.change}\n      ${mutation.equivalent}`);
      }
    }
    for (const [file, why] of Object.entries(NO_RUNTIME_CODE)) console.log(`not mutated: ${file}: ${why}`);
    const misjudged = results.some((entry) => entry.mutation.equivalent !== undefined && entry.status !== 'survived');
    if (survived.length > 0 || misjudged) process.exitCode = 1;
  } finally {
    cleanUp();
  }
}

await main();
