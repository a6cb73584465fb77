// reset_after_write where no server drops the connection (docs/testing-retries.md): the app's own
// answer, as a runtime would send it, is the write's status and headers (Sandbox-Fault among them)
// with a body whose read fails. On Node (app.request) that body errors when read; on Workers it
// is a FixedLengthStream of the answer's own length to which nothing is written, with
// Content-Encoding: identity so that no front line compresses it into a body that ends cleanly
// (docs/workers.md). Here a stand-in of workerd's FixedLengthStream records the length declared;
// test/workers/faults.test.ts holds the real one.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testApp } from '../helpers.js';

const KEY = 'svc_test_sandbox_public';
const JOB_BODY = JSON.stringify({ type: 'ci_pickup', client: 'cli_seII9pzPSgmmJJ', site: 'site_boDWBFERDT5aI9' });

function createJob(app: ReturnType<typeof testApp>, headers: Record<string, string>): Promise<Response> {
  return Promise.resolve(
    app.request('/v1/jobs', {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json', ...headers },
      body: JOB_BODY,
    }),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the app's answer under reset_after_write", () => {
  it('on Node: the status and headers of the write, then a body whose read fails', async () => {
    const app = testApp();
    const lost = await createJob(app, { 'Idempotency-Key': 'lost-node-1', 'Sandbox-Simulate': 'reset_after_write' });
    expect(lost.status).toBe(201);
    expect(lost.headers.get('Sandbox-Fault')).toBe('reset_after_write');
    expect(lost.headers.get('Content-Type')).toMatch(/^application\/json/);
    const read = await lost.text().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(read).toBeInstanceOf(TypeError);
    expect((read as TypeError).message).toMatch(/reset_after_write/);
    // The write ran: the retry with the key replays it.
    const retried = await createJob(app, { 'Idempotency-Key': 'lost-node-1' });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('Idempotent-Replayed')).toBe('true');
  });

  it("on Workers: a FixedLengthStream of the answer's length, nothing written, Content-Encoding: identity", async () => {
    const declared: number[] = [];
    class FixedLengthStream extends TransformStream<Uint8Array, Uint8Array> {
      constructor(length: number) {
        super();
        declared.push(length);
      }
    }
    vi.stubGlobal('FixedLengthStream', FixedLengthStream);
    const app = testApp();
    const lost = await createJob(app, { 'Idempotency-Key': 'lost-workers-1', 'Sandbox-Simulate': 'reset_after_write' });
    expect(lost.status).toBe(201);
    expect(lost.headers.get('Sandbox-Fault')).toBe('reset_after_write');
    expect(lost.headers.get('Content-Encoding')).toBe('identity');
    await expect(lost.arrayBuffer()).rejects.toBeInstanceOf(TypeError);
    // The length declared is that of the answer the write made: the one its replay gives.
    const replay = await createJob(app, { 'Idempotency-Key': 'lost-workers-1' });
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(declared).toEqual([(await replay.arrayBuffer()).byteLength]);
  });
});
