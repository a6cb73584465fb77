// Child process: the minimal Hono + zod create (minimal-create-app.mjs) on @hono/node-server, in a
// process of its own like the sandbox and the baseline.
// Protocol: parent sends {type:'template', template}; child answers {type:'ready', port}.
import { serve } from '@hono/node-server';
import { createMinimalCreateApp } from './minimal-create-app.mjs';

process.once('message', (message) => {
  try {
    const app = createMinimalCreateApp(message.template);
    serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => process.send({ type: 'ready', port: info.port }));
  } catch (error) {
    process.send({ type: 'error', message: String(error?.stack ?? error) });
  }
});
// The parent going away must not leave a server listening.
process.on('disconnect', () => process.exit(0));
