// The error reference every error body's doc_url points at (/docs/errors#<code>). Keyed by the
// code table's type, so a new code in src/errors.ts does not compile until it is explained here.
import { ERROR_CODES, type ErrorCode } from '../errors.js';
import { escapeHtml, page } from './html.js';

interface ErrorDoc {
  when: string;
  fix: string;
}

export const ERROR_DOCS: Record<ErrorCode, ErrorDoc> = {
  parameter_missing: {
    when: 'A required field of the request body is missing. <code>param</code> names it as a dotted path (<code>address.city</code>, <code>window.start</code>).',
    fix: 'Send the field. The operation\'s request body in <a href="/docs">the reference</a> lists what is required.',
  },
  parameter_invalid: {
    when: 'A field or query parameter has a wrong type or a value outside what is allowed, is unknown, or cannot be changed by this endpoint; an ID (body reference or filter) has the prefix of another type; the body is not a JSON object or not sent as <code>application/json</code>; <code>limit</code> is outside 1 to 100; <code>starting_after</code> is not a record of the list; <code>Idempotency-Key</code> is longer than 255 characters; <code>Sandbox-Simulate</code> has an unknown value; <code>Sandbox-Clock</code> is not a UTC time written as the API writes them (<code>2026-03-02T17:00:00Z</code>: RFC 3339, seconds, <code>Z</code>). A body over 1 MiB gives this code with status 413. <code>param</code> names the field when one is at fault.',
    fix: 'Correct the value named by <code>param</code>: the message says what it takes, repeats what was sent and, when a known value is close, asks "Did you mean …?". Remove unknown fields.',
  },
  api_key_missing: {
    when: 'No <code>Authorization</code> header, or <code>Bearer</code> with nothing after it.',
    fix: 'Send <code>Authorization: Bearer svc_test_sandbox_public</code> (or another sandbox key).',
  },
  api_key_invalid: {
    when: 'The key was not issued by the sandbox, has been revoked, or is a live key (<code>svc_live_</code>), which never works in the sandbox.',
    fix: 'Use a sandbox key (<code>svc_test_</code>), such as <code>svc_test_sandbox_public</code>.',
  },
  scope_missing: {
    when: 'The key lacks the scope the endpoint needs (each operation names its scope).',
    fix: 'Use a key with that scope; <code>svc_test_sandbox_public</code> has all sixteen.',
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
    when: 'The <code>Idempotency-Key</code> was already used with a different method, path or body, or the first request with that key is still running.',
    fix: 'Use a new key for a new request; retry the same request with the same key only after the first has finished.',
  },
  state_invalid: {
    when: 'The record cannot make that change from its present state: cancelling a job that has started, changing a closed job or a profile that is not a draft, moving a container other than to its next status.',
    fix: 'Read the record to see its status; the message says which statuses allow the change.',
  },
  rate_limited: {
    when: 'Too many requests for the key and client address (or <code>Sandbox-Simulate: rate_limited</code>).',
    fix: 'Wait the seconds of the <code>Retry-After</code> header, then retry. <code>RateLimit-Policy</code> states the limit.',
  },
  api_error: {
    when: 'A failure on the sandbox side (or <code>Sandbox-Simulate: api_error</code>).',
    fix: 'Retry with the same <code>Idempotency-Key</code>; a failed request is not stored, so the retry runs again. Quote <code>request_id</code> when reporting it.',
  },
};

/** The page of /docs/errors: one section per code, its anchor the code. */
export function errorsPage(): string {
  const sections = (Object.keys(ERROR_DOCS) as ErrorCode[]).map((code) => {
    const { status, type } = ERROR_CODES[code];
    const doc = ERROR_DOCS[code];
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
