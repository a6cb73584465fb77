// The error reference every error body's doc_url points at (/docs/errors#<code>). Keyed by the
// code table's type, so a new code in src/errors.ts does not compile until it is explained here.
// Where it suggests a key, it is a working key of the configured table (or it says there is none).
import { type ApiKey, NO_WORKING_KEY_TEXT } from '../auth/keys.js';
import { SCOPES } from '../auth/scopes.js';
import { ERROR_CODES, type ErrorCode } from '../errors.js';
import { escapeHtml, page } from './html.js';

interface ErrorDoc {
  when: string;
  fix: string;
}

/** The sections that suggest a key, for the table's working key. */
function keyDocs(key: ApiKey | undefined): Pick<Record<ErrorCode, ErrorDoc>, 'api_key_missing' | 'api_key_invalid' | 'scope_missing'> {
  const none = ` Here ${NO_WORKING_KEY_TEXT}: the key table given to the sandbox needs a key that is not revoked and has a scope.`;
  const code = key === undefined ? '' : `<code>${escapeHtml(key.key)}</code>`;
  const allScopes = key !== undefined && key.scopes.size === SCOPES.length;
  return {
    api_key_missing: {
      when: 'No <code>Authorization</code> header, or <code>Bearer</code> with nothing after it.',
      fix:
        key === undefined
          ? `Send <code>Authorization: Bearer &lt;key&gt;</code>.${none}`
          : `Send <code>Authorization: Bearer ${escapeHtml(key.key)}</code> (or another key of this sandbox).`,
    },
    api_key_invalid: {
      when: 'The key was not issued by the sandbox, has been revoked, or is a live key (<code>svc_live_</code>), which never works in the sandbox.',
      fix:
        key === undefined
          ? `Use a key of this sandbox's key table.${none}`
          : `Use a key of this sandbox (<code>svc_test_</code>), such as ${code}.`,
    },
    scope_missing: {
      when: 'The key lacks the scope the endpoint needs (each operation names its scope).',
      fix:
        key === undefined
          ? `Use a key with that scope.${none}`
          : `Use a key with that scope; ${code} has ${allScopes ? `all ${SCOPES.length}` : `the most of this sandbox's keys: ${[...key.scopes].map((scope) => `<code>${scope}</code>`).join(', ')}`}.`,
    },
  };
}

const OTHER_DOCS: Omit<Record<ErrorCode, ErrorDoc>, 'api_key_missing' | 'api_key_invalid' | 'scope_missing'> = {
  parameter_missing: {
    when: 'A required field of the request body is missing. <code>param</code> names it as a dotted path (<code>address.city</code>, <code>window.start</code>).',
    fix: 'Send the field. The operation\'s request body in <a href="/docs">the reference</a> lists what is required.',
  },
  parameter_invalid: {
    when: 'A field or query parameter has a wrong type or a value outside what is allowed, is unknown, or cannot be changed by this endpoint; an ID (body reference or filter) has the prefix of another type; the body is not a JSON object or not sent as <code>application/json</code>; <code>limit</code> is outside 1 to 100; <code>starting_after</code> is not a record of the list; <code>Idempotency-Key</code> is longer than 255 characters; <code>Sandbox-Simulate</code> is not one of <code>rate_limited</code>, <code>api_error</code>, <code>api_error_after_write</code>, <code>reset_after_write</code>, <code>duplicate_event</code>, a <code>delay=&lt;ms&gt;</code> (0 to 60000), or a delay and a fault, comma-separated; <code>Sandbox-Clock</code> is not a UTC time written as the API writes them (<code>2026-03-02T17:00:00Z</code>: RFC 3339, seconds, <code>Z</code>). A body over 1 MiB gives this code with status 413. <code>param</code> names the field when one is at fault.',
    fix: 'Correct the value named by <code>param</code>: the message says what it takes, repeats what was sent and, when a known value is close, asks "Did you mean …?". Remove unknown fields.',
  },
  resource_missing: {
    when: "No record with that ID in the key's account (an ID of another account answers the same), or the URL is not an endpoint of the API. Any string with the right prefix is looked up, whatever its length. For a body reference (<code>client</code>, <code>site</code>, <code>job</code>), <code>param</code> names the field.",
    fix: 'Check the ID and its prefix, and that the key belongs to the account holding the record. Records created in the sandbox are not kept, so they are never found later.',
  },
  method_not_allowed: {
    when: 'The path exists but does not answer that method.',
    fix: 'Use one of the methods of the <code>Allow</code> header.',
  },
  idempotency_conflict: {
    when: 'The <code>Idempotency-Key</code> was already used with a different method, path or body, or the first request with that key is still running. On a shared key (the public keys everyone reading these docs uses), Idempotency-Keys are kept per key and client address: the request in conflict came from your own address, never from a stranger.',
    fix: 'Use a new key for a new request; retry the same request with the same key only after the first has finished.',
  },
  state_invalid: {
    when: 'The record cannot make that change from its present state: cancelling a job that has started, changing a closed job or a profile that is not a draft, moving a container other than to its next status.',
    fix: 'Read the record to see its status; the message says which statuses allow the change.',
  },
  rate_limited: {
    when: 'Too many requests for the key and client address (or <code>Sandbox-Simulate: rate_limited</code>, or more than 1,000 answers held at once by <code>Sandbox-Simulate: delay=…</code>).',
    fix: 'Wait the seconds of the <code>Retry-After</code> header, then retry. <code>RateLimit-Policy</code> states the limit.',
  },
  api_error: {
    when: 'A failure on the sandbox side, or one made on purpose (the answer then carries <code>Sandbox-Fault</code>): <code>Sandbox-Simulate: api_error</code> fails before anything runs; <code>api_error_after_write</code> runs the write (its result stored under its key, its events delivered), then loses its answer; <code>--faults</code> draws either at random.',
    fix: 'Retry with the same <code>Idempotency-Key</code> and body: if the write ran, the retry gets its stored answer with <code>Idempotent-Replayed: true</code>; if it did not, it runs now. Without a key, a retry carries out a write that ran a second time. Quote <code>request_id</code> when reporting it.',
  },
};

/** The page of /docs/errors: one section per code (in the code table's order), its anchor the code. */
export function errorsPage(key: ApiKey | undefined): string {
  const docs: Record<ErrorCode, ErrorDoc> = { ...OTHER_DOCS, ...keyDocs(key) };
  const sections = (Object.keys(ERROR_CODES) as ErrorCode[]).map((code) => {
    const { status, type } = ERROR_CODES[code];
    const doc = docs[code];
    return `<section id="${code}">
<h2><a href="#${code}">${code}</a></h2>
<p class="meta">Status ${status}${code === 'parameter_invalid' ? ' (413 for a body over 1 MiB)' : ''} · type <code>${escapeHtml(type)}</code></p>
<p><strong>When:</strong> ${doc.when}</p>
<p><strong>What to do:</strong> ${doc.fix}</p>
</section>`;
  });
  return page(
    'Errors — Waste Operations API sandbox',
    `<h1>Errors</h1>
<p>Every error answers with one member, <code>error</code>: <code>type</code>, <code>code</code>, <code>message</code>, <code>param</code> (when a field is at fault), <code>doc_url</code> (a link to the section below) and <code>request_id</code> (the same as the <code>Request-Id</code> header). Back to <a href="/docs">the API reference</a>.</p>
${sections.join('\n')}`,
  );
}
