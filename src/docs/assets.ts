// The Swagger UI files /docs needs, served by the sandbox itself so the page works offline and
// behind a firewall: read from disk on Node (src/docs/node-assets.ts), from Workers Static Assets
// on Workers (src/worker/apps.ts). scripts/docs-assets.mjs lays them out for both.

export const DOCS_ASSETS = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'favicon-32x32.png': 'image/png',
} as const;

export type DocsAssetName = keyof typeof DOCS_ASSETS;

/** The bytes (or stream) of one asset; undefined when it cannot be found. */
export type DocsAssets = (name: DocsAssetName) => Promise<BodyInit | undefined>;
