const t0 = performance.now();
const m = await import('/work/main/dist/app.js');
const t1 = performance.now();
const app = m.createApp(m.readConfig({ SANDBOX_RATE_LIMIT: 'off' }));
const t2 = performance.now();
const r = await app.request('/v1/jobs?limit=1', { headers: { Authorization: 'Bearer svc_test_sandbox_public' } });
await r.text();
const t3 = performance.now();
const ns = await import('hono');
const t4 = performance.now();
console.log(
  `boot ${t0.toFixed(0)} import ${(t1 - t0).toFixed(0)} create ${(t2 - t1).toFixed(0)} first ${(t3 - t2).toFixed(0)} node-server ${(t4 - t3).toFixed(0)}`,
);
