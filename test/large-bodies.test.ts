// Large request bodies on a real loopback socket (issue #24): bodies of 64 KiB and more are read
// as the chunks the socket gives and checked to be JSON before they are parsed (so a flood of them
// does not swell the server's memory); the answers must be exactly those of small bodies: the
// same error for text that is not JSON or not UTF-8, the same validation of JSON that is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_KEY, serveOnLoopback } from './helpers.js';

let served: Awaited<ReturnType<typeof serveOnLoopback>>;
let base: string;
const headers = { Authorization: `Bearer ${PUBLIC_KEY}`, 'Content-Type': 'application/json' };
const NOT_JSON = 'Request body is not valid JSON (UTF-8).';

beforeAll(async () => {
  served = await serveOnLoopback();
  base = served.origin;
});

afterAll(() => served.close());

/** POST /v1/clients with the body as given, with its Content-Length, or in 16 KiB chunks without one. */
async function post(body: Uint8Array, chunked = false): Promise<{ status: number; error: Record<string, unknown> }> {
  const sent = chunked
    ? new ReadableStream<Uint8Array>({
        start(controller) {
          for (let offset = 0; offset < body.byteLength; offset += 16 * 1024) controller.enqueue(body.slice(offset, offset + 16 * 1024));
          controller.close();
        },
      })
    : body;
  const response = await fetch(`${base}/v1/clients`, { method: 'POST', headers, body: sent, duplex: 'half' } as RequestInit);
  return { status: response.status, error: ((await response.json()) as { error: Record<string, unknown> }).error };
}

const utf8 = (text: string) => new TextEncoder().encode(text);
const LARGE = 600_000;

describe('large bodies (64 KiB to 1 MiB)', () => {
  for (const chunked of [false, true]) {
    const how = chunked ? 'in chunks without Content-Length' : 'with Content-Length';

    it(`answers 400 "not valid JSON" to a large body that is not JSON, ${how}`, async () => {
      for (const text of [
        `{"name":"${'x'.repeat(LARGE)}"`, // never closed
        `{"name":"${'x'.repeat(LARGE)}",}`, // trailing comma
        `{"name":"${'x'.repeat(LARGE)}\u0001"}`, // a raw control character in a string
        `{"name":"${'x'.repeat(LARGE)}"} x`, // text after the value
        `{"name":"${'x'.repeat(LARGE)}\\q"}`, // an escape JSON does not have
        `[${'1,'.repeat(LARGE / 2)}01]`, // a number with a leading zero
      ]) {
        const answer = await post(utf8(text), chunked);
        expect(answer.status, text.slice(-12)).toBe(400);
        expect(answer.error).toMatchObject({ code: 'parameter_invalid', message: NOT_JSON });
      }
    });

    it(`answers 400 "not valid JSON" to a large body that is not UTF-8, ${how}`, async () => {
      const bytes = utf8(`{"name":"${'x'.repeat(LARGE)}"}`);
      bytes[LARGE / 2] = 0xff;
      const answer = await post(bytes, chunked);
      expect(answer.status).toBe(400);
      expect(answer.error).toMatchObject({ code: 'parameter_invalid', message: NOT_JSON });
    });

    it(`validates a large body that is JSON as any other, multi-byte characters across chunks included, ${how}`, async () => {
      // 'é' is 2 bytes and '€' 3: with 16 KiB chunks, some are cut in two between chunks.
      const name = 'é€'.repeat(LARGE / 5);
      const answer = await post(utf8(JSON.stringify({ name, email: 'not an email' })), chunked);
      expect(answer.status).toBe(400);
      // Read to its end and parsed: the error is about a field, not about the JSON text.
      expect(answer.error.code).toBe('parameter_invalid');
      expect(answer.error.message).not.toBe(NOT_JSON);
      expect(answer.error.param).toEqual(expect.any(String));
    });

    it(`answers a large body that is a JSON array, not an object, as a small one, ${how}`, async () => {
      const answer = await post(utf8(`[${'"x",'.repeat(LARGE / 4)}"x"]`), chunked);
      expect(answer.status).toBe(400);
      expect(answer.error).toMatchObject({ code: 'parameter_invalid', message: 'Request body must be a JSON object.' });
    });
  }

  it('creates from a large valid body (access notes of 600,000 characters), answering them whole', async () => {
    const clients = await fetch(`${base}/v1/clients?limit=1`, { headers });
    const client = ((await clients.json()) as { data: { id: string }[] }).data[0]?.id;
    const notes = `Gate code 4411. ${'Ring twice. '.repeat(LARGE / 12)}`;
    const body = {
      client,
      name: 'Yard',
      address: { line1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701' },
      access_notes: notes,
    };
    for (const chunked of [false, true]) {
      const bytes = utf8(JSON.stringify(body));
      const response = await fetch(`${base}/v1/sites`, {
        method: 'POST',
        headers,
        body: chunked ? new Blob([bytes]).stream() : bytes,
        duplex: 'half',
      } as RequestInit);
      expect(response.status, (await response.clone().text()).slice(0, 300)).toBe(201);
      expect((await response.json()).access_notes).toBe(notes);
    }
  });
});
