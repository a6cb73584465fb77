// The bare server of the cold-start comparison: @hono/node-server and Hono with one route that
// answers a small JSON list, nothing else, loaded from node_modules as any small app would be.
// `node scripts/bench/bare-start.mjs` listens on PORT at HOST (scripts/bench/sandbox.mjs starts it).
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const app = new Hono();
app.get('/v1/jobs', (c) => c.json({ object: 'list', data: [], has_more: false, next_cursor: null }));
app.get('/health', (c) => c.json({ status: 'ok' }));
serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: process.env.HOST ?? '127.0.0.1' });
