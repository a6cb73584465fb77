// /docs: Swagger UI rendering /openapi.json, with "try it" sending real requests to this sandbox
// under a working key of the configured table (src/auth/keys.ts, workingKey). The script is a
// file of its own (/docs/init.js) so the page needs no inline script under its
// Content-Security-Policy.
import type { ApiKey } from '../auth/keys.js';
import { FAULTS, SIMULATE_HEADER } from '../faults/simulate.js';
import { escapeHtml, page } from './html.js';

/** What /docs says when no key of the table can be used, so "try it" answering 401 is explained. */
export const NO_WORKING_KEY =
  'No key of this sandbox\'s key table can be used (every key is revoked or has no scope), so "Try it out" answers 401. Fix the table given in SANDBOX_KEYS (--keys).';

/**
 * What /docs says above "try it" when its key is shared (SANDBOX.md, "Shared keys"): everyone
 * reading the docs sends the same key, so a stranger should know what the others can see.
 */
export const SHARED_KEY_NOTICE =
  'This key is shared by everyone who reads these docs. Everyone sees the same sample data, and nobody sees what another writes: writes are answered, then dropped. Your Idempotency-Keys (their stored answers, webhook secrets included, and their 409s) and your rate limit are kept per key and client address, so nobody at another address replays, conflicts with or slows down yours. Behind one shared address (an office, a CI provider), use unique Idempotency-Keys, such as UUIDs.';

export function referencePage(key: ApiKey | undefined): string {
  const notice =
    key === undefined ? `<p>${escapeHtml(NO_WORKING_KEY)}</p>\n` : key.shared === true ? `<p>${escapeHtml(SHARED_KEY_NOTICE)}</p>\n` : '';
  return page(
    'API reference — Waste Operations API sandbox',
    `${notice}<div id="swagger-ui"></div>\n<script src="/docs/swagger-ui-bundle.js"></script>\n<script src="/docs/init.js"></script>`,
    '<link rel="stylesheet" href="/docs/swagger-ui.css">',
  );
}

export function initScript(key: ApiKey | undefined): string {
  const authorize =
    key === undefined
      ? '    // No key of the table can be used: nothing to fill in.'
      : `    window.ui.preauthorizeApiKey('bearer', ${JSON.stringify(key.key)});`;
  return `// Swagger UI for the sandbox: its own document, no validator badge (it calls an outside host),
// a working sandbox key filled in for "try it" and not kept in the browser's storage.
${SIMULATE_VALUES_SCRIPT}
window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  validatorUrl: null,
  persistAuthorization: false,
  deepLinking: true,
  displayOperationId: true,
  defaultModelsExpandDepth: 0,
  onComplete: function () {
${authorize}
  },
});
`;
}

/**
 * "Try it" offers the values of Sandbox-Simulate without filling one in: its text box gets a list
 * of them (an HTML datalist), so a value can be picked or typed (a delay takes any milliseconds).
 * Swagger UI would pre-fill an example or turn an enum into a closed select; neither fits.
 */
const SIMULATE_VALUES_SCRIPT = `(function () {
  var values = ${JSON.stringify([...FAULTS, 'delay=2500', 'delay=2500, api_error_after_write', 'delay=2500, reset_after_write'])};
  var list = document.createElement('datalist');
  list.id = 'sandbox-simulate-values';
  values.forEach(function (value) {
    var option = document.createElement('option');
    option.value = value;
    list.appendChild(option);
  });
  document.body.appendChild(list);
  new MutationObserver(function () {
    document.querySelectorAll('tr[data-param-name="${SIMULATE_HEADER}"] input:not([list])').forEach(function (input) {
      input.setAttribute('list', list.id);
    });
  }).observe(document.body, { childList: true, subtree: true });
})();`;

export const DOCS_CSS = `body { font: 16px/1.5 system-ui, sans-serif; max-width: 52rem; margin: 2rem auto; padding: 0 1rem; color: #1f2328; }
code { font: 0.9em ui-monospace, monospace; background: #f3f4f6; padding: 0.1em 0.3em; border-radius: 4px; }
section { border-top: 1px solid #d0d7de; padding-top: 0.5rem; }
section:target { background: #fff8c5; }
h2 a { color: inherit; text-decoration: none; }
.meta { color: #57606a; }
`;
