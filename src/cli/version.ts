// The package's version, for --version and the User-Agent of webhook deliveries; bundled into
// dist/ from package.json at build time.
import pkg from '../../package.json' with { type: 'json' };

export const VERSION: string = pkg.version;
