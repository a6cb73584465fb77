// The reference of the create scenario: POST /v1/jobs as a minimal Hono + zod app writes it
// (parse the JSON body, validate it with one zod schema, build the record, stringify it), with
// none of the sandbox's checks (key table, scopes, Idempotency-Key, referenced records, state,
// faults, clock). Its req/s against the baseline's says what the libraries alone cost on this
// machine, so the sandbox's own share of a create can be read beside it (issue #24: "a minimal
// Hono + zod create reaches 0.7-0.85 of bare").
import { Hono } from 'hono';
import { z } from 'zod';

const LocalTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/);
const Id = (prefix) => z.string().regex(new RegExp(`^${prefix}_[0-9A-Za-z]{14}$`));

/** The create body of the reference ("Jobs"), in one schema. */
const CreateJob = z.strictObject({
  type: z.enum(['hhw_event', 'ci_pickup', 'lab_pack']),
  client: Id('cli'),
  site: Id('site'),
  scheduled_for: z.iso.date().optional(),
  window: z
    .strictObject({ start: LocalTime, end: LocalTime })
    .refine((window) => window.start < window.end, { path: ['end'], message: 'must be later than window.start' })
    .optional(),
  metadata: z.record(z.string().max(40), z.string().max(500)).optional(),
});

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function randomId(prefix) {
  let id = `${prefix}_`;
  for (let i = 0; i < 14; i++) id += ALPHABET[Math.floor(Math.random() * 62)];
  return id;
}

/**
 * `template`: the sandbox's own answer to the scenario's create (a job record), whose fields the
 * reference fills from the body it validated, so both send records of the same shape and size.
 */
export function createMinimalCreateApp(template) {
  const app = new Hono();
  app.post('/v1/jobs', async (c) => {
    if (c.req.header('Authorization') === undefined) return c.json({ error: { type: 'authentication_error' } }, 401);
    let body;
    try {
      body = await c.req.json();
    } catch {
      return c.json({ error: { type: 'invalid_request_error', code: 'parameter_invalid' } }, 400);
    }
    const parsed = CreateJob.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return c.json({ error: { type: 'invalid_request_error', param: issue?.path.join('.'), message: issue?.message } }, 400);
    }
    const now = `${new Date().toISOString().slice(0, 19)}Z`;
    const { type, client, site, scheduled_for, window, metadata } = parsed.data;
    const job = {
      ...template,
      id: randomId('job'),
      type,
      client,
      site,
      scheduled_for: scheduled_for ?? template.scheduled_for,
      window: window ?? template.window,
      metadata: metadata ?? {},
      created_at: now,
      updated_at: now,
    };
    return c.json(job, 201);
  });
  return app;
}
