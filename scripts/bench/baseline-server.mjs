// Child process: a comparison app of the bench on @hono/node-server, in a process of its own like
// the sandbox, so all compete for the same two cores with the load generator in the same way:
// the baseline (baseline-app.mjs) or the create's reference (minimal-create-app.mjs).
// Protocol: parent sends {type:'scenarios', scenarios} for the baseline, or {type:'template',
// template} for the minimal create; child answers {type:'ready', port}.
import { serve } from '@hono/node-server';
import { createBaselineApp } from './baseline-app.mjs';
import { createMinimalCreateApp } from './minimal-create-app.mjs';

process.once('message', (message) => {
  try {
    const app = message.type === 'template' ? createMinimalCreateApp(message.template) : createBaselineApp(message.scenarios);
    serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => process.send({ type: 'ready', port: info.port }));
  } catch (error) {
    process.send({ type: 'error', message: String(error?.stack ?? error) });
  }
});
// The parent going away must not leave a server listening.
process.on('disconnect', () => process.exit(0));
