// The routes anyone may read without a key: the OpenAPI document and the docs pages. CORS is on
// for all of them, so tools on other origins can load the document.
import type { Context, Hono } from 'hono';
import type { ApiKey } from '../auth/keys.js';
import type { AccountStore } from '../data/store.js';
import type { SandboxEnv } from '../http/env.js';
import { CORS_HEADERS, type Responder } from '../http/reply.js';
import { DOCS_ASSETS, type DocsAssetName, type DocsAssets } from './assets.js';
import { errorsPage } from './errors.js';
import { DOCS_CSS, initScript, referencePage } from './reference-page.js';

/** Only this sandbox's own files, and data: images (Swagger UI's icons are inline SVG). */
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

export interface DocsOptions {
  respond: Responder;
  /** The RateLimit-Policy value, which every response carries (reference, "Limits"). */
  rateLimitPolicy: string;
  /** The account whose records are the document's examples (once the sample data is loaded). */
  account: () => AccountStore;
  assets: DocsAssets | undefined;
  /** The key /docs fills in and the document names: a working one of the configured table, if any. */
  key: ApiKey | undefined;
}

export function registerDocs(app: Hono<SandboxEnv>, { respond, rateLimitPolicy, account, assets, key }: DocsOptions): void {
  // Built on first use (tens of milliseconds) and kept; `servers` is the origin of each request.
  // Its code, the OpenAPI generator with it, is loaded then too: no API request needs it, and
  // every start (a CI job's, a Worker isolate's) would pay for it.
  let documentText: string | undefined;
  app.get('/openapi.json', async (c) => {
    documentText ??= JSON.stringify((await import('../openapi/document.js')).buildOpenApiDocument(account(), key));
    const servers = JSON.stringify([{ url: new URL(c.req.url).origin, description: 'This sandbox' }]);
    return respond(c, 200, `${documentText.slice(0, -1)},"servers":${servers}}`, CORS_HEADERS);
  });

  const file = (c: Context<SandboxEnv>, body: BodyInit, contentType: string) =>
    new Response(body, {
      headers: {
        ...CORS_HEADERS,
        'Content-Type': contentType,
        'Content-Security-Policy': CONTENT_SECURITY_POLICY,
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'public, max-age=300',
        'RateLimit-Policy': rateLimitPolicy,
        'Request-Id': respond.requestId(c),
      },
    });
  const reference = referencePage(key);
  const script = initScript(key);
  app.get('/docs', (c) => file(c, reference, HTML));
  app.get('/docs/errors', (c) => file(c, errorsPage(key), HTML));
  app.get('/docs/init.js', (c) => file(c, script, 'text/javascript; charset=utf-8'));
  app.get('/docs/docs.css', (c) => file(c, DOCS_CSS, 'text/css; charset=utf-8'));
  // One static route per file, not `/docs/:asset`: a parameter beside the static /docs/… routes
  // made Hono's SmartRouter fall back from RegExpRouter to TrieRouter for every route, API
  // included (a tenth of the CPU of a GET in `npm run bench`).
  for (const name of Object.keys(DOCS_ASSETS) as DocsAssetName[]) {
    app.get(`/docs/${name}`, async (c, next) => {
      const body = assets === undefined ? undefined : await assets(name);
      return body === undefined ? next() : file(c, body, DOCS_ASSETS[name]);
    });
  }
}

const HTML = 'text/html; charset=utf-8';
