// Mutation testing (`npm run mutate`, docs/operations.md "Mutation testing"): StrykerJS changes
// the sources one small edit at a time and runs the in-process Node suites (vitest.mutate.config.ts)
// against each; a change no test notices is a surviving mutant. Incremental: the result of every
// mutant is kept in .stryker/incremental.json, so a re-run tests only the mutants of
// changed code and the tests that changed.

/**
 * Mutants no observable behaviour can tell apart from the original, each with the reason: a
 * file, the text of the line the mutant is on (unique in that file), and either the source text
 * of the one node it changes (`node`: every mutant of that node is ignored) or the mutator's name
 * (`mutator`: that mutator's mutants on the line). Stryker reports them as ignored, outside the
 * score. Where a mutator makes a real mutant too on the same line (`false` beside an equivalent
 * `true`), `alsoIgnored` names it and the test that kills it when it is not ignored.
 */
const EQUIVALENT = [
  {
    file: 'src/auth/keys.ts',
    line: "{ key: 'svc_test_sandbox_revoked', account: 'A', scopes: new Set(SCOPES), revoked: true, shared: true },",
    node: "'A'",
    reason:
      "`''` for the revoked key's account (static too: the table is built as the module loads): authenticate (src/http/auth.ts) answers a revoked key 401 before the pipeline sets the request's key or account, so no step reads it (the pinned clock's material takes null on a 401); workingKey skips revoked keys, so /docs, /openapi.json, the start-up banner and the 401s never name it; neither createSandbox nor the Worker exposes the table",
  },
  {
    file: 'src/auth/keys.ts',
    line: "{ key: 'svc_test_sandbox_readonly', account: 'A', scopes: new Set(READ_SCOPES), revoked: false, shared: true },",
    node: 'shared: true',
    reason:
      "`false` (static: the table is built as the module loads): `shared` only names whose an Idempotency-Key is (src/pipeline/idempotency.ts), and the read-only key holds no write scope, so every POST it sends is a 403 before the Idempotency-Key step (src/app.ts: scope comes first), and a GET has none; nothing else reads it, and neither createSandbox nor the Worker exposes the table. The jobs key's and account B's key's are killed by test/strangers-in-process.test.ts",
  },
  {
    file: 'src/auth/keys.ts',
    line: "{ key: 'svc_test_sandbox_revoked', account: 'A', scopes: new Set(SCOPES), revoked: true, shared: true },",
    node: 'shared: true',
    reason:
      "`false` (static): `shared` only names whose an Idempotency-Key is, and a revoked key is answered 401 before the pipeline reaches that step, whatever it sends",
  },
  {
    file: 'src/auth/keys.ts',
    line: 'const COMPARED_WORDS = COMPARED_BYTES / 4;',
    mutator: 'ArithmeticOperator',
    reason:
      '`COMPARED_BYTES * 4` (static too): the key ring then compares 1,024 words of two 64-word arrays; the 960 read past their ends are undefined, taken as 0 on both sides, and two lengths of 64 add no difference, so every presented key matches the same entry as before, only later',
  },
  {
    file: 'src/clock/derive.ts',
    line: 'if (nodeCrypto !== undefined) return derivationRoot(seed, material);',
    node: 'nodeCrypto !== undefined',
    reason:
      "each of its three mutants only chooses which HMAC-SHA256 makes the root, and all three give the same 32 bytes (test/clock-runtimes.test.ts holds the pure JavaScript and Web Crypto ones to RFC 4231; test/worker-parity.test.ts the Worker's to the stored bytes); Node and workerd both have Web Crypto. The condition made `true`: Node's own on Node, the pure JavaScript one on the Worker; made `false`: Web Crypto's on both; `===`: Web Crypto's on Node, the pure JavaScript one on the Worker. Only CPU time differs (a 1 MiB body's root takes ~15 ms in pure JavaScript on the Worker, ~1 ms by Web Crypto), which no answer shows",
  },
  {
    file: 'src/clock/derive.ts',
    line: "const imported = await subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);",
    mutator: 'BooleanLiteral',
    reason:
      "`true` for `extractable`: whether the imported key could be exported, which nothing does, so the HMAC is the same (the line's other mutants are killed by test/clock-runtimes.test.ts, which runs Web Crypto's HMAC on Node against RFC 4231)",
  },
  {
    file: 'src/webhooks/signature.ts',
    line: "const [name, value = ''] = part.trim().split('=', 2) as [string, string?];",
    node: "''",
    reason:
      "`'Stryker was here!'` for the value of a part without '=': the value is only tested against /^\\d{1,15}$/ (after t) and /^[0-9a-f]{64}$/ (after v1), and neither the empty text nor that one (letters past f, a space) matches, so such a part is ignored either way by signatureProblem, verifySignature and checkReceiver",
  },
  {
    file: 'src/http/body.ts',
    line: 'if (declared !== null && /^\\d+$/.test(declared) && Number(declared) < CHECKED_BODY_BYTES) {',
    mutator: 'all',
    reason:
      "memory only (docs/operations.md, \"Memory bounds\"): each of its 15 mutants only changes which of two ways reads a body, whole (arrayBuffer) or as the chunks it arrives in, counted: the condition made `true` or `false`; either `&&` made `||`; `declared !== null && /^\\d+$/.test(declared)` made `true`; `declared !== null` made `true` or `===`; the pattern as /\\d+$/, /^\\d+/, /^\\d$/ or /^\\D+$/; the size check made `true`, `<=` or `>=`; the block emptied (the chunks' way). Both ways give the same bytes, so the same text and answer; both refuse more than 1 MiB with the same 413 (a declared length past it is refused on the line before; an in-process Request that carries more than it declares is counted either way); a body that breaks off is the same 400 (readBytes); no body is 0 bytes either way",
  },
  {
    file: 'src/http/body.ts',
    line: 'const CHECKED_BODY_BYTES = 64 * 1024;',
    node: '64 * 1024',
    reason:
      "`64 / 1024` (static): the size from which a body is read as chunks and checked by requireJsonText before JSON.parse; both only bound memory, with the same answers for every size (the rules on its two uses, in this list), so a smaller size changes only which bodies take that way",
  },
  {
    file: 'src/http/body.ts',
    line: 'if (request.body === null) return { chunks: [], size: 0 };',
    mutator: 'ArrayDeclaration',
    reason: "`['Stryker was here']` for `[]`: the size is still 0, and readJsonObject answers {} for 0 bytes before it looks at the chunks",
  },
  {
    file: 'src/http/body.ts',
    line: 'if (bytes.size >= CHECKED_BODY_BYTES) requireJsonText(text);',
    node: 'bytes.size >= CHECKED_BODY_BYTES',
    reason:
      'memory only: requireJsonText throws exactly where JSON.parse, on the next line, throws (test/json-syntax.test.ts holds it to JSON.parse), and either throw is the same 400, so which bodies it checks first changes no answer: `true` (every body), `false` (none), `>` (not one of exactly 64 KiB), `<` (the small ones, not the large)',
  },
  {
    file: 'src/http/clock.ts',
    line: "return (c) => c.get('mint') ?? mintFor(c);",
    node: "'mint'",
    reason:
      "`''` (c.get('') is undefined, so each call makes a new mint instead of taking the kept one): the running clock's mint is one object anyway; a new pinned mint has the same time and derives the same root, since what it reads of the request (key, method, target, body, Idempotency-Key) is all set before the handler asks; its counts start again, which would repeat a value only if two calls asked for two values of one kind, and none does: the handler gets one mint for all its IDs, the request ID is made once and kept (src/http/request-id.ts), no write emits two events. On the Worker the handler's root is then made on first use by the pure JavaScript HMAC rather than prepared by Web Crypto: the same bytes, more CPU",
  },
  {
    file: 'src/http/messages.ts',
    line: 'let tie = false;',
    mutator: 'BooleanLiteral',
    reason:
      '`let tie = true`: every choice that sets best also sets tie to false, so the first value stands only when no choice was close enough, and then best is undefined and so is the answer, tie or not',
  },
  {
    file: 'src/resources/webhook_endpoints/url.ts',
    line: 'return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];',
    node: '8 - left.length',
    reason:
      "`8 + left.length` (left.length more zeros before `right`): isPublicIpv6 reads the first group, and the sixth to eighth only when the first five are 0. Without `::` left holds all eight groups and the zeros come after them. With `::` and left empty nothing moves. Otherwise the group of `left` next to `::` is not 0 (the WHATWG parser compresses the longest run of zero groups, and a zero there would have joined it): with left shorter than five that group is among the first five, so only the first group is read, which left gives either way; with five or more, the first five come from left either way. (2,000,000 random addresses as the parser writes them agree.)",
  },
  {
    file: 'src/resources/waste_profiles/schema.ts',
    line: "ctx.addIssue({ code: 'custom', path: [index], message: `must list each waste code once;",
    node: "'custom'",
    reason:
      "`''` for the issue's code: zod keeps a code it is given; the message begins with \"must\", so expectation() (src/http/messages.ts) uses it as written; receivedOf and choicesOf read the code only for the params a custom issue may carry (received, choices), and this one carries none, so both fall back alike; validation.ts looks only for 'invalid_union' and 'unrecognized_keys', neither of which it is",
  },
  {
    file: 'src/resources/webhook_endpoints/schema.ts',
    line: "ctx.addIssue({ code: 'custom', path: [index], message: `must list each event type once;",
    node: "'custom'",
    reason: "`''` for the issue's code: as for the repeated waste code, a \"must\" message with no params",
  },
  {
    file: 'src/resources/webhook_endpoints/schema.ts',
    line: "if (events.length > 1) ctx.addIssue({ code: 'custom', path: [index], message: 'must be the only element",
    node: "'custom'",
    reason: "`''` for the issue's code: as for the repeated waste code, a \"must\" message with no params",
  },
  {
    file: 'src/resources/jobs/schema.ts',
    line: "if (window.start >= window.end) ctx.addIssue({ code: 'custom', path: ['end'],",
    node: "'custom'",
    reason: "`''` for the issue's code: as for the repeated waste code, a \"must\" message with no params",
  },
  {
    file: 'src/resources/webhook_endpoints/schema.ts',
    line: "if (problem !== null) ctx.addIssue({ code: 'custom', message: `${problem} (webhook URLs are public https URLs)` });",
    node: "'custom'",
    reason: "`''` for the issue's code: as for the repeated waste code, a \"must\" message (each problem begins with must) with no params",
  },
  {
    file: 'src/pipeline/handle.ts',
    line: "const reply = await endpoint.handle({ c, account: c.get('account'), id: c.req.param('id') ?? '', query, body, now: mint.now, mint });",
    node: "''",
    reason:
      "`\"Stryker was here!\"` for the fallback: it is taken only on a path without `{id}` (lists, creates), and the handlers of those paths never read `id`; the eight that do (get, the five updates, cancel, delete) have `{id}` in their path, where Hono always gives it. Nothing else reads the input's id: not the pinned clock's material (key, method, target, body, Idempotency-Key), not the request log",
  },
  {
    file: 'src/pipeline/idempotency.ts',
    line: 'if (!outcome.replayed && answered !== undefined) return answered;',
    mutator: 'all',
    reason:
      "speed only: the handler's Response and the one made from the stored text carry the same status, body (the text stored is the reply's JSON), Request-Id and Sandbox-Fault; `if (false)` makes it again, `if (true)` and `!outcome.replayed` made true return the first run's answer, which is the one stored, and `answered !== undefined` made true returns undefined only when next() gave none, which a handler never does. Reusing it saves about 10 µs of a keyed create (measured in-process against the version that made it again)",
  },
  {
    file: 'src/config/sources.ts',
    line: 'const result = Settings.safeParse(input, { jitless: true });',
    node: '{ jitless: true }',
    reason:
      "`{}` and `{ jitless: false }`: whether zod compiles the settings' schema to a fast path (a `new Function`, which workerd refuses, hence jitless) or interprets it; the same result and issues either way, so the same configuration and the same message. It is parsed once per start (and per createSandbox), so only start-up time differs",
  },
  {
    file: 'src/faults/held-answers.ts',
    line: 'if (this.#places.size >= this.#max) this.#sweep();',
    mutator: 'ConditionalExpression',
    alsoIgnored:
      "`false` (never sweep): killed, when not ignored, by test/faults/held-answers.test.ts ('a place whose answer never resumes lapses at its deadline'), whose full table stays full",
    reason:
      "`true`: the places past their deadline are dropped at every take rather than only when the bound is reached; the next line checks the same bound either way and freeing a place already dropped does nothing, so the same requests are held and refused. Only the cost differs: O(n) per take instead of O(1)",
  },
  {
    file: 'src/random-text.ts',
    line: 'if (position === POOL_SIZE) {',
    mutator: 'ConditionalExpression',
    alsoIgnored:
      "`false` (never refill): past the first 4,096 bytes every byte reads undefined and is skipped, so randomBase62 never returns: killed by time-out in every test",
    reason:
      '`true`: a fresh block of random bytes for every byte taken; each byte is still fresh and uniform, so the same kind of text. Only the cost of one getRandomValues per byte differs',
  },
  {
    file: 'src/random-text.ts',
    line: 'if (position === POOL_SIZE) {',
    mutator: 'EqualityOperator',
    reason:
      '`!==`: the first byte read is pool[4096], undefined, which `byte < UNBIASED_LIMIT` skips; from then on the block is refilled before every byte, as with `true` above: fresh, uniform bytes, more CPU',
  },
  {
    file: 'src/sandbox.ts',
    line: "if (typeof option === 'string' && option.trim() !== '') return () => option;",
    mutator: 'ArrowFunction',
    reason:
      "`() => undefined` for createSandbox's clientAddress given as text: the address only names this sandbox's rate-limit buckets and shared keys' Idempotency-Keys (`${key}\\u0000${address}`), and one constant splits requests as any other constant does (every request from one address); nothing answers or logs it in-process",
  },
  {
    file: 'src/node-server.ts',
    line: 'if (finished) return;',
    mutator: 'ConditionalExpression',
    alsoIgnored:
      "`true` (finish does nothing): the answer of a refused body is never finished; killed, when not ignored, by test/node-edge/linger.test.ts",
    reason:
      "`false`: a second call of finish comes only from the request's 'close' after a bound of LINGER was met; it then ends an answer already ended, which writes nothing (@hono/node-server passes `end` no callback), and sets a second destroy timer on a socket whose first one is running",
  },
  {
    file: 'src/node-server.ts',
    line: 'finished = true;',
    node: 'true',
    reason: '`false`: as `if (finished)` made false above, the same second call and nothing more',
  },
  {
    file: 'src/node-server.ts',
    line: "incoming.off('data', onData);",
    node: "'data'",
    reason:
      "`''`: the counting listener stays after finish; later chunks call `idle.refresh()` on a timer already cleared, which Node does not start again, or go past LINGER's byte bound into a finish that has run (its guard returns): nothing is written or closed differently",
  },
  {
    file: 'src/node-server.ts',
    line: 'if (!socket.writable) {',
    mutator: 'ConditionalExpression',
    alsoIgnored:
      "`true` (every refused socket destroyed without an answer): killed, when not ignored, by test/node-edge/refused.test.ts and test/http-edge/refusals.test.ts",
    reason:
      "`false`: a socket not writable here was destroyed by Node (a reset reaches clientError after the socket is destroyed), where the answer's `end` writes nothing, or is in its own ending, where the write after the end destroys it: the client gets the same nothing either way",
  },
  {
    file: 'src/node-server.ts',
    line: 'if (!socket.writable) {',
    mutator: 'BlockStatement',
    reason: '`{}`: as the condition made false above, the socket goes on to an `end` that writes nothing to it',
  },
  {
    file: 'src/faults/index.ts',
    line: "return { fault: undefined, delayMs: drawn.delayMs ?? 0, items: [{ text: `delay=${drawn.delayMs ?? 0}`, isDelay: true }] };",
    node: 'true',
    reason:
      "`false` for a random delay's item: FaultPlan drops an item that is not a delay only when a write under duplicate_event emits nothing (#inEffect(false)); a random draw gives one delay or one fault, never both, so a drawn delay's plan has no fault and its item is always shown: the same Sandbox-Fault either way",
  },
];

/** The line (1-based) of a rule's text in a file's code; it must be on exactly one line. */
function lineOf(rule, code) {
  const lines = code.split('\n');
  const at = lines.findIndex((text) => text.includes(rule.line));
  if (at === -1 || lines.findIndex((text, i) => i > at && text.includes(rule.line)) !== -1) {
    throw new Error(`stryker.config.mjs: "${rule.line}" must be on exactly one line of ${rule.file}`);
  }
  return at + 1;
}

/**
 * Stryker's ignorer plugins ignore a node with everything inside it: right for a `node` rule (a
 * leaf such as a string), too much for a `mutator` rule, which would hide real mutants inside the
 * node beside an equivalent one. So, on entering a file, the line of each `mutator` rule gets a
 * `Stryker disable next-line <mutator>: <reason>` comment in the parsed tree (never in the file),
 * which Stryker reads as it reaches that line.
 */
const equivalentMutants = {
  shouldIgnore(path) {
    const file = path.hub?.file;
    const name = file?.opts?.filename?.replaceAll('\\', '/') ?? '';
    const rules = EQUIVALENT.filter((entry) => name.endsWith(entry.file));
    if (rules.length === 0) return undefined;
    const { start, end, loc } = path.node;
    for (const rule of rules.filter((entry) => entry.node !== undefined)) {
      if (loc?.start.line === lineOf(rule, file.code) && file.code.slice(start, end) === rule.node) return rule.reason;
    }
    if (path.node.type !== 'Program') return undefined;
    for (const rule of rules.filter((entry) => entry.mutator !== undefined)) {
      const line = lineOf(rule, file.code);
      let marked = false;
      path.traverse({
        enter(inner) {
          if (marked || inner.node.loc?.start.line !== line) return;
          const value = ` Stryker disable next-line ${rule.mutator}: ${rule.reason}`;
          inner.node.leadingComments = [...(inner.node.leadingComments ?? []), { type: 'CommentLine', value }];
          marked = true;
        },
      });
    }
    return undefined;
  },
};

export const strykerPlugins = [{ kind: 'Ignore', name: 'equivalent-mutants', value: equivalentMutants }];

/**
 * What the suites must hold (issues #23 and #37): every file a request passes through on Node,
 * from the socket (`src/node-server.ts`, `src/http-edge`) through the order of checks
 * (`src/app.ts`, `src/pipeline`), the configuration that shapes it, the schemas and the errors, to
 * the store's ordering and paging. The Worker's own files (`src/worker.ts`, `src/worker/`) run
 * only in workerd, which Stryker's vitest runner cannot drive: `npm run mutate:worker` applies
 * recorded mutations to them and runs the workerd suites (docs/operations.md, "Mutation
 * testing"). All of it has been run and triaged: `npm run mutate` keeps it at the recorded score.
 */
const MEASURED = [
  'src/app.ts',
  'src/sandbox.ts',
  'src/config.ts',
  'src/errors.ts',
  'src/node-server.ts',
  'src/random-text.ts',
  'src/pipeline/**/*.ts',
  'src/schemas/**/*.ts',
  'src/faults/**/*.ts',
  'src/config/**/*.ts',
  'src/http-edge/**/*.ts',
  'src/http/**/*.ts',
  'src/auth/**/*.ts',
  'src/idempotency/**/*.ts',
  'src/webhooks/**/*.ts',
  'src/clock/**/*.ts',
  'src/rate-limit/**/*.ts',
  'src/resources/**/*.ts',
  'src/data/store.ts',
  'src/data/page-cache.ts',
];

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner', './stryker.config.mjs'],
  ignorers: ['equivalent-mutants'],
  vitest: { configFile: 'vitest.mutate.config.ts', related: true },
  coverageAnalysis: 'perTest',
  mutate: MEASURED,
  ignorePatterns: ['coverage', 'reports', '.wrangler', 'test-results', '*.tgz', 'test/.readme-examples', 'test/.typed-client'],
  // Static mutants (what a module declares as it loads: endpoint definitions, tables, constants)
  // are run too (issue #37): each needs the whole suite with the sources loaded again, seconds
  // when a test fails at once, so a first run takes about an hour longer; incremental runs only
  // re-run those of changed files. A module that throws as it loads fails no test of its own
  // (vitest reports a file that could not run), so test/modules-load.test.ts loads the package
  // inside a test. The schemas are not static: each test builds the ones it uses
  // (test/mutate-setup.ts).
  ignoreStatic: false,
  incremental: true,
  incrementalFile: '.stryker/incremental.json',
  // Two cores, shared: one test process.
  concurrency: 1,
  // A test process holds every test's coverage of every mutant: over all of MEASURED in one run,
  // past V8's default heap (the first run was split into parts for it).
  testRunnerNodeArgs: ['--max-old-space-size=8192'],
  timeoutMS: 20_000,
  reporters: ['clear-text', 'progress', 'html'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  // The score reached over MEASURED (docs/operations.md, "The whole request path"): 100% of
  // 5,565 mutants, static ones included, on 2026-11-28 (issue #37). Any surviving mutant fails the run.
  thresholds: { high: 95, low: 85, break: 100 },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
