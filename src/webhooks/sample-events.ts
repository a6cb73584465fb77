// The events `trigger` sends: events of the seeded sample data, read through the sandbox's own
// API with the public key, so a delivery's body is byte for byte what GET /v1/events/{id} answers.
import { DEFAULT_KEYS } from '../auth/keys.js';
import { EVENT_TYPES, type EventType } from '../resources/events/types.js';
import type { Sandbox } from '../sandbox.js';

export interface SampleEvent {
  id: string;
  type: EventType;
  /** The exact bytes of GET /v1/events/{id}. */
  body: string;
}

const PUBLIC_KEY = (DEFAULT_KEYS[0] as { key: string }).key;

async function read(sandbox: Sandbox, path: string): Promise<{ status: number; text: string }> {
  const response = await sandbox.fetch(
    new Request(`http://sandbox.internal${path}`, { headers: { Authorization: `Bearer ${PUBLIC_KEY}` } }),
  );
  return { status: response.status, text: await response.text() };
}

/** The event with this ID, or undefined when the sample data has none. */
export async function sampleEventById(sandbox: Sandbox, id: string): Promise<SampleEvent | undefined> {
  const { status, text } = await read(sandbox, `/v1/events/${encodeURIComponent(id)}`);
  if (status !== 200) return undefined;
  return { id, type: (JSON.parse(text) as { type: EventType }).type, body: text };
}

/** The newest event of a type (every type has some in account A: docs/sample-data.md). */
export async function sampleEventOfType(sandbox: Sandbox, type: EventType): Promise<SampleEvent> {
  const list = await read(sandbox, `/v1/events?type=${type}&limit=1`);
  const first = (JSON.parse(list.text) as { data?: { id: string }[] }).data?.[0];
  const event = first === undefined ? undefined : await sampleEventById(sandbox, first.id);
  if (event === undefined) throw new Error(`the sample data of seed ${sandbox.seed} has no ${type} event`);
  return event;
}

/** One event of each of the twelve types, in the reference's order. */
export function sampleEventOfEachType(sandbox: Sandbox): Promise<SampleEvent[]> {
  return Promise.all(EVENT_TYPES.map((type) => sampleEventOfType(sandbox, type)));
}

/**
 * The newest `count` events of a type, each with its own bytes of GET /v1/events/{id}. Fewer when
 * the sample data has fewer (every type has dozens in account A of any seed: docs/sample-data.md).
 */
export async function sampleEventsOfType(sandbox: Sandbox, type: EventType, count: number): Promise<SampleEvent[]> {
  const list = await read(sandbox, `/v1/events?type=${type}&limit=${count}`);
  const ids = (JSON.parse(list.text) as { data: { id: string }[] }).data.map((event) => event.id);
  return Promise.all(ids.map(async (id) => ({ id, type, body: (await read(sandbox, `/v1/events/${id}`)).text })));
}
