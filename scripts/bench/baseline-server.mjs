// Child process: the baseline app on @hono/node-server, in a process of its own like the sandbox,
// so both compete for the same two cores with the load generator in the same way.
// Protocol: parent sends {type:'scenarios', scenarios}; child answers {type:'ready', port}.
import { serve } from '@hono/node-server';
import { createBaselineApp } from './baseline-app.mjs';

process.once('message', (message) => {
  try {
    const app = createBaselineApp(message.scenarios);
    serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => process.send({ type: 'ready', port: info.port }));
  } catch (error) {
    process.send({ type: 'error', message: String(error?.stack ?? error) });
  }
});
// The parent going away must not leave a server listening.
process.on('disconnect', () => process.exit(0));
