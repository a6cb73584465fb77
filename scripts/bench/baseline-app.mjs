// The baseline: a bare Hono app that answers each benchmarked request with the sandbox's own
// bytes, status and content type from memory. The ratio sandbox/baseline then measures what the
// sandbox adds (auth, validation, lookups, serialisation), not Node's HTTP stack or the loader.
import { Hono } from 'hono';

/** scenarios: captureScenarios' output (each with .response). */
export function createBaselineApp(scenarios) {
  const app = new Hono();
  // The error scenario shares GET /v1/jobs with the list: the sandbox tells them apart by the
  // key, so the baseline does the cheapest equivalent, a header presence check.
  const routes = new Map();
  for (const scenario of scenarios) {
    const pathname = scenario.path.split('?')[0];
    const routeKey = `${scenario.method} ${pathname}`;
    const route = routes.get(routeKey) ?? { method: scenario.method, pathname, withKey: null, withoutKey: null };
    const answer = {
      status: scenario.response.status,
      headers: { 'Content-Type': scenario.response.contentType, ...scenario.response.headers },
      body: scenario.response.body,
    };
    if ('Authorization' in scenario.headers) route.withKey = answer;
    else route.withoutKey = answer;
    routes.set(routeKey, route);
  }
  for (const { method, pathname, withKey, withoutKey } of routes.values()) {
    app.on(method, pathname, async (c) => {
      // A request body is read as any real endpoint must, so a POST costs the baseline its upload too.
      if (method !== 'GET') await c.req.arrayBuffer();
      const answer = (c.req.header('Authorization') !== undefined ? withKey : withoutKey) ?? withKey ?? withoutKey;
      return new Response(answer.body, { status: answer.status, headers: answer.headers });
    });
  }
  return app;
}
