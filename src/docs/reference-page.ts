// /docs: Swagger UI rendering /openapi.json, with "try it" sending real requests to this sandbox
// under the public key. The script is a file of its own (/docs/init.js) so the page needs no
// inline script under its Content-Security-Policy.
import { page } from './html.js';

export const PUBLIC_KEY = 'svc_test_sandbox_public';

export function referencePage(): string {
  return page(
    'API reference — Waste Operations API sandbox',
    '<div id="swagger-ui"></div>\n<script src="/docs/swagger-ui-bundle.js"></script>\n<script src="/docs/init.js"></script>',
    '<link rel="stylesheet" href="/docs/swagger-ui.css">',
  );
}

export const INIT_SCRIPT = `// Swagger UI for the sandbox: its own document, no validator badge (it calls an outside host),
// the public sandbox key filled in for "try it" and not kept in the browser's storage.
window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  validatorUrl: null,
  persistAuthorization: false,
  deepLinking: true,
  displayOperationId: true,
  defaultModelsExpandDepth: 0,
  onComplete: function () {
    window.ui.preauthorizeApiKey('bearer', ${JSON.stringify(PUBLIC_KEY)});
  },
});
`;

export const DOCS_CSS = `body { font: 16px/1.5 system-ui, sans-serif; max-width: 52rem; margin: 2rem auto; padding: 0 1rem; color: #1f2328; }
code { font: 0.9em ui-monospace, monospace; background: #f3f4f6; padding: 0.1em 0.3em; border-radius: 4px; }
section { border-top: 1px solid #d0d7de; padding-top: 0.5rem; }
section:target { background: #fff8c5; }
h2 a { color: inherit; text-decoration: none; }
.meta { color: #57606a; }
`;
