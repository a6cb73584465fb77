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
    file: 'src/rate-limit/token-bucket.ts',
    line: 'if (oldest !== undefined) this.#buckets.delete(oldest);',
    mutator: 'ConditionalExpression',
    reason: 'the map holds maxBuckets entries here, so oldest is always a key (and delete(undefined) does nothing)',
    alsoIgnored: '`if (false)`, killed by test/abuse/floods.test.ts "a flood of distinct presented keys keeps the rate-limit buckets bounded"',
  },
  {
    file: 'src/rate-limit/token-bucket.ts',
    line: 'return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / this.#perSecond)) };',
    mutator: 'MethodExpression',
    reason: 'rates are whole numbers of 1 or more, so (1 - tokens) / rate is at most 1 and the wait is always 1 s',
  },
  {
    file: 'src/idempotency/fingerprint.ts',
    line: "if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;",
    node: "','",
    reason: 'without commas only arrays of adjacent numbers could meet ([1,2] and [12]), and no body that passes validation holds one',
  },
  {
    file: 'src/idempotency/fingerprint.ts',
    line: "return `{${entries.join(',')}}`;",
    node: "','",
    reason: 'each member begins with its quoted key, so members stay apart without commas: two bodies never meet',
  },
  {
    file: 'src/auth/keys.ts',
    line: "{ key: 'svc_test_sandbox_revoked', account: 'A', scopes: new Set(SCOPES), revoked: true, shared: true },",
    node: "'A'",
    reason: 'a revoked key is refused before its account is read: no answer depends on it',
  },
  {
    file: 'src/auth/keys.ts',
    line: 'const COMPARED_WORDS = COMPARED_BYTES / 4;',
    mutator: 'ArithmeticOperator',
    reason: 'timing only: words read past the arrays are undefined, taken as 0 on both sides, so the answer is the same, later',
  },
  {
    file: 'src/auth/keys.ts',
    line: 'for (let i = 0; i < count; i++) difference |= (a[i] ?? 0) ^ (b[i] ?? 0);',
    mutator: 'EqualityOperator',
    reason: '`<=` reads element `count`, past any input that can match (a longer one already differs), as 0 on both sides',
    alsoIgnored: '`i >= count`, killed by test/security.test.ts "the comparison looks at a fixed number of bytes whatever the lengths, and is exact"',
  },
  {
    file: 'src/clock/derive.ts',
    line: 'nodeCrypto === undefined',
    node: 'nodeCrypto === undefined',
    reason: "both branches are HMAC-SHA256 and give the same bits; on Node, where these suites run, Node's own is only faster",
  },
  {
    file: 'src/clock/derive.ts',
    line: '? (key, message) => hmac(sha256, key, message)',
    node: '(key, message) => hmac(sha256, key, message)',
    reason: 'the pure JavaScript HMAC runs only where Node crypto is missing (the deployed Worker), out of reach of Node suites; test/worker-parity.test.ts holds the deployed bundle to the same stored bytes',
  },
  {
    file: 'src/clock/derive.ts',
    line: 'if (nodeCrypto !== undefined || webCrypto === undefined) return derivationRoot(seed, material);',
    node: 'nodeCrypto !== undefined || webCrypto === undefined',
    reason: "on Node both ways are HMAC-SHA256 and give the same bits (Node has Web Crypto too); Web Crypto's way runs only on the deployed Worker, which test/worker-parity.test.ts holds to the same stored bytes",
  },
  {
    file: 'src/clock/derive.ts',
    line: 'async function webCryptoHmac(',
    mutator: 'all',
    reason: 'Web Crypto HMAC, run only on the deployed Worker (no Node crypto), out of reach of Node suites; test/worker-parity.test.ts holds it to the stored bytes',
  },
  {
    file: 'src/clock/derive.ts',
    line: "const imported = await subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);",
    mutator: 'all',
    reason: 'as above: only on the deployed Worker, held by test/worker-parity.test.ts',
  },
  {
    file: 'src/clock/derive.ts',
    line: "return new Uint8Array(await subtle.sign('HMAC', imported, message));",
    mutator: 'all',
    reason: 'as above: only on the deployed Worker, held by test/worker-parity.test.ts',
  },
  {
    file: 'src/data/store.ts',
    line: 'const bytes: Uint8Array<ArrayBuffer>[] = new Array(records.length);',
    node: 'new Array(records.length)',
    reason: 'the loop below sets every index, so an array made without its length ends the same (its size was for speed only)',
  },
  {
    file: 'src/data/store.ts',
    line: 'return index === undefined ? undefined : records[index];',
    mutator: 'ConditionalExpression',
    reason: 'records[undefined] is undefined too: the branch only keeps the types honest',
  },
  {
    file: 'src/data/store.ts',
    line: 'return index === undefined ? undefined : bytes[index];',
    mutator: 'ConditionalExpression',
    reason: 'bytes[undefined] is undefined too: the branch only keeps the types honest',
  },
  {
    file: 'src/webhooks/signature.ts',
    line: "const [name, value = ''] = part.trim().split('=', 2) as [string, string?];",
    node: "''",
    reason: "a part without '=' is ignored whatever the default: neither '' nor Stryker's replacement text matches the t= or v1= patterns",
  },
  {
    file: 'src/http/body.ts',
    line: 'if (declared !== null && /^\\d+$/.test(declared) && Number(declared) < CHECKED_BODY_BYTES) {',
    mutator: 'all',
    reason: 'memory only: which of two ways reads the body (whole, or as its chunks, counted); both give the same bytes and refuse the same sizes',
  },
  {
    file: 'src/http/body.ts',
    line: 'if (request.body === null) return { chunks: [], size: 0 };',
    mutator: 'ArrayDeclaration',
    reason: 'a size of 0 answers {} before the chunks are looked at',
  },
  {
    file: 'src/http/body.ts',
    line: 'if (chunks.length === 1) return decoder.decode(chunks[0]);',
    mutator: 'ConditionalExpression',
    reason: 'speed only: the streaming decoder, with the same options, gives the same text for one chunk',
  },
  {
    file: 'src/http/body.ts',
    line: "if (bytes.size >= CHECKED_BODY_BYTES && !isJsonText(text)) throw new SyntaxError('not JSON');",
    mutator: 'all',
    reason: 'memory only (docs/operations.md, "Memory bounds"): JSON.parse runs next and decides the same; test/json-syntax.test.ts holds isJsonText to it',
  },
  {
    file: 'src/http/body.ts',
    line: 'for (let i = 0; i < text.length; i++) {',
    mutator: 'EqualityOperator',
    reason: '`<=` reads charCodeAt(length), NaN, which matches no branch',
    alsoIgnored: '`i >= text.length`, killed by test/writes/bodies.test.ts "body nesting"',
  },
  {
    file: 'src/http/clock.ts',
    line: "let mint = c.get('mint');",
    node: "'mint'",
    reason: 'speed only: without the kept mint a new one is made, and a pinned one derives the same root from the same request; no answer asks one mint twice for values of one kind across calls',
  },
  {
    file: 'src/http/clock.ts',
    line: 'if (mint !== undefined) return mint;',
    mutator: 'ConditionalExpression',
    reason: 'as above: a new mint of the same request gives the same values',
  },
  {
    file: 'src/http/clock.ts',
    line: 'if (header === undefined || parsePinnedTime(header) !== undefined) return;',
    node: 'header === undefined',
    reason: 'the app calls this check only when the header is present (src/app.ts)',
  },
  {
    file: 'src/http/idempotency.ts',
    line: 'return error instanceof ApiError && error.status !== 400 && error.status !== 413 && error.status < 500;',
    mutator: 'ConditionalExpression',
    reason: 'a 413 is answered as the body is read, before the key is looked at, and no 5xx ApiError is thrown while a write runs (a simulated api_error is thrown before, api_error_after_write after it is stored)',
    alsoIgnored: 'the `!== 400` branch made true, killed by test/writes/idempotency.test.ts (a 400 is not stored)',
  },
  {
    file: 'src/http/idempotency.ts',
    line: 'return error instanceof ApiError && error.status !== 400 && error.status !== 413 && error.status < 500;',
    mutator: 'EqualityOperator',
    reason: 'as above: no 500 ApiError reaches this check',
    alsoIgnored: '`!== 400` made `=== 400`, killed as above',
  },
  {
    file: 'src/http/request-id.ts',
    line: "id = c.get('mint')?.requestId() ?? newRequestId();",
    mutator: 'OptionalChaining',
    reason: 'the responder makes the mint before it asks for the ID, so the mint is always there',
  },
  {
    file: 'src/clock/derive.ts',
    line: 'export async function derivationRootAsync(seed: string, material: RequestMaterial): Promise<Uint8Array> {',
    mutator: 'BlockStatement',
    reason: 'on Node the root computed early is the one the first use computes: preparing it matters for CPU on the Worker only, where test/worker-parity.test.ts holds the bytes',
  },
  {
    file: 'src/clock/mint.ts',
    line: 'async prepare(): Promise<void> {',
    mutator: 'BlockStatement',
    reason: 'as for derivationRootAsync: an unprepared root is computed on first use, the same',
  },
  {
    file: 'src/clock/mint.ts',
    line: 'this.#root ??= await derivationRootAsync(this.#seed, { ...this.#material(), time: this.pinned });',
    mutator: 'AssignmentOperator',
    reason: 'as above: a root not kept here is computed on first use from the same request, the same',
  },
  {
    file: 'src/http/messages.ts',
    line: 'let tie = false;',
    mutator: 'BooleanLiteral',
    reason: 'every choice that sets best also sets tie to false, and with no best the answer is undefined either way',
  },
  {
    file: 'src/http/messages.ts',
    line: 'for (let i = 0; i < a.length; i++) {',
    mutator: 'EqualityOperator',
    reason: '`<=` reads one place past the end, where both strings give undefined (equal), so the loop goes on and ends as before',
    alsoIgnored: '`i >= a.length`, killed by test/http/messages-words.test.ts "closestChoice" (a swap of two letters is one edit)',
  },
  {
    file: 'src/http/messages.ts',
    line: 'return false;',
    node: 'false',
    reason: "isSwap ends here with 0 or 1 letters apart: closestChoice has already taken a choice equal but for case, and 1 letter apart is 1 edit to Levenshtein too",
  },
  {
    file: 'src/resources/webhook_endpoints/url.ts',
    line: 'return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];',
    node: '8 - left.length',
    reason: "the count only moves groups when `left` is not empty; the URL parser compresses the longest run of zeros, so an address whose first five groups are 0 (the only ones the IPv4 forms read) always begins with `::`, and `left` is empty",
  },
  {
    file: 'src/resources/waste_profiles/schema.ts',
    line: "ctx.addIssue({ code: 'custom', path: [index], message: `must list each waste code once;",
    node: "'custom'",
    reason: "a message beginning with must is used as written, and an issue's code is read only for the params it may carry (received, choices): this one has none",
  },
  {
    file: 'src/resources/webhook_endpoints/schema.ts',
    line: "ctx.addIssue({ code: 'custom', path: [index], message: `must list each event type once;",
    node: "'custom'",
    reason: 'as for the repeated waste code: a "must" message with no params',
  },
  {
    file: 'src/resources/webhook_endpoints/schema.ts',
    line: "if (events.length > 1) ctx.addIssue({ code: 'custom', path: [index], message: 'must be the only element",
    node: "'custom'",
    reason: 'as for the repeated waste code: a "must" message with no params',
  },
  {
    file: 'src/resources/containers/list.ts',
    line: 'job === undefined && status === undefined && storage === undefined',
    mutator: 'ConditionalExpression',
    reason: 'timing only: with no filter given, the predicate made instead matches every record and the page is the same',
    alsoIgnored: 'the condition made true (filters ignored) and each part made true, killed by test/lists.test.ts (each filter against the reference order)',
  },
  {
    file: 'src/resources/invoices/list.ts',
    line: 'client === undefined && status === undefined',
    mutator: 'ConditionalExpression',
    reason: 'timing only: with no filter given, the predicate made instead matches every record and the page is the same',
    alsoIgnored: 'the condition made true (filters ignored) and each part made true, killed by test/lists.test.ts (each filter against the reference order)',
  },
  {
    file: 'src/resources/jobs/list.ts',
    line: 'type === undefined && status === undefined && client === undefined && from === undefined',
    mutator: 'ConditionalExpression',
    reason: 'timing only: with no filter given, the predicate made instead matches every record and the page is the same',
    alsoIgnored: 'the condition made true (filters ignored) and each part made true, killed by test/lists.test.ts (each filter against the reference order)',
  },
  {
    file: 'src/resources/manifests/list.ts',
    line: 'job === undefined && status === undefined',
    mutator: 'ConditionalExpression',
    reason: 'timing only: with no filter given, the predicate made instead matches every record and the page is the same',
    alsoIgnored: 'the condition made true (filters ignored) and each part made true, killed by test/lists.test.ts (each filter against the reference order)',
  },
  {
    file: 'src/resources/waste_profiles/list.ts',
    line: 'client === undefined && status === undefined',
    mutator: 'ConditionalExpression',
    reason: 'timing only: with no filter given, the predicate made instead matches every record and the page is the same',
    alsoIgnored: 'the condition made true (filters ignored) and each part made true, killed by test/lists.test.ts (each filter against the reference order)',
  },
  {
    file: 'src/resources/jobs/schema.ts',
    line: "if (window.start >= window.end) ctx.addIssue({ code: 'custom', path: ['end'],",
    node: "'custom'",
    reason: 'as for the repeated waste code: a "must" message with no params',
  },
  {
    file: 'src/resources/webhook_endpoints/schema.ts',
    line: "if (problem !== null) ctx.addIssue({ code: 'custom', message: `${problem} (webhook URLs are public https URLs)` });",
    node: "'custom'",
    reason: 'as for the repeated waste code: a "must" message (each problem begins with must) with no params',
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
 * What the suites must hold (issue #23): every folder of the request path, and the store's
 * ordering and paging. All of it has been run and triaged (docs/operations.md, "Mutation
 * testing"): `npm run mutate` keeps it at the recorded score.
 */
const MEASURED = [
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
  // Static mutants (constants and schemas built as modules load) would each need the whole suite
  // run with the sources loaded again: 1,543 of them in src/http, src/webhooks, src/resources and
  // the store, 25 hours here. They are left out (reported as ignored); the reference's own
  // transcription in test/reference holds those constants instead (docs/operations.md).
  ignoreStatic: true,
  incremental: true,
  incrementalFile: '.stryker/incremental.json',
  // Two cores, shared: one test process.
  concurrency: 1,
  timeoutMS: 20_000,
  reporters: ['clear-text', 'progress', 'html'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  // The recorded score of MEASURED (docs/operations.md): a new surviving mutant fails the run.
  thresholds: { high: 100, low: 85, break: 100 },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
