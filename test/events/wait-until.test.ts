// On Workers an event's delivery runs after the answer, so the app hands each delivery to the
// request's waitUntil (SANDBOX.md, "Events from writes": "On Workers … the delivery runs after the
// answer"; src/pipeline/emit-events.ts). The app is called as the Worker calls it, with an
// execution context; the sink stands for the Worker's, which gives a promise per delivery it
// makes and nothing for an event type it does not send (SANDBOX_WEBHOOK_EVENTS).
import { describe, expect, it } from 'vitest';
import { PUBLIC_KEY, testApp } from '../helpers.js';

const JOB_BODY = JSON.stringify({ type: 'ci_pickup', client: 'cli_seII9pzPSgmmJJ', site: 'site_boDWBFERDT5aI9' });

/** An execution context as workerd gives one: it records what it is told to wait for. */
function executionContext() {
  const waited: unknown[] = [];
  return { waited, context: { waitUntil: (work: unknown) => waited.push(work), passThroughOnException: () => {}, props: {} } };
}

/** A sink that delivers every event (a promise each) or none (nothing to wait for). */
function sink(delivers: boolean) {
  const emitted: { type: string; afterMs: number; delivery: Promise<void> | undefined }[] = [];
  return {
    emitted,
    emit(event: { type: string }, afterMs = 0) {
      const delivery = delivers ? Promise.resolve() : undefined;
      emitted.push({ type: event.type, afterMs, delivery });
      return delivery;
    },
  };
}

async function createJob(app: ReturnType<typeof testApp>, context: object, headers: Record<string, string> = {}): Promise<Response> {
  const request = new Request('http://sandbox.test/v1/jobs', {
    method: 'POST',
    headers: { Authorization: `Bearer ${PUBLIC_KEY}`, 'Content-Type': 'application/json', ...headers },
    body: JOB_BODY,
  });
  return app.fetch(request, {}, context as never);
}

describe("an event's delivery on Workers", () => {
  it('is handed to waitUntil, the very promise the sink gave', async () => {
    const events = sink(true);
    const { waited, context } = executionContext();
    const answer = await createJob(testApp({}, { events }), context);
    expect(answer.status, await answer.text()).toBe(201);
    expect(events.emitted.map(({ type, afterMs }) => [type, afterMs])).toEqual([['job.created', 0]]);
    expect(waited).toHaveLength(1);
    expect(waited[0]).toBe(events.emitted[0]?.delivery);
  });

  it('under duplicate_event: both deliveries, the second a second later, each handed to waitUntil', async () => {
    const events = sink(true);
    const { waited, context } = executionContext();
    const answer = await createJob(testApp({}, { events }), context, { 'Sandbox-Simulate': 'duplicate_event' });
    expect(answer.status, await answer.text()).toBe(201);
    expect(events.emitted.map(({ type, afterMs }) => [type, afterMs])).toEqual([
      ['job.created', 0],
      ['job.created', 1000],
    ]);
    expect(waited).toHaveLength(2);
    expect(waited[0]).toBe(events.emitted[0]?.delivery);
    expect(waited[1]).toBe(events.emitted[1]?.delivery);
  });

  it('an event the sink does not deliver leaves waitUntil untold, once or twice', async () => {
    for (const headers of [{}, { 'Sandbox-Simulate': 'duplicate_event' }] as Record<string, string>[]) {
      const events = sink(false);
      const { waited, context } = executionContext();
      const answer = await createJob(testApp({}, { events }), context, headers);
      expect(answer.status, await answer.text()).toBe(201);
      expect(events.emitted.length).toBeGreaterThan(0);
      expect(waited).toEqual([]);
    }
  });
});
