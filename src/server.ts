// `npm start` and `node dist/server.js` in a clone: the same program as the published
// `waste-operations-sandbox` command (src/cli/bin.ts), serving by default.
import './cli/bin.js';
