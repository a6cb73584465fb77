// Reading a write's body (src/http/body.ts) through HTTP, in-process: the 1 MiB limit from
// Content-Length and while reading (SANDBOX.md "Errors", docs/behaviour.md "Bodies"), the JSON
// content types accepted, the body that is not an object, and nesting counted per container.
import { describe, expect, it } from 'vitest';
import { readResponse } from '../response.js';
import { type CallResult, call, expectError, expectStatus, PUBLIC_KEY, writesApp } from '../writes/helpers.js';

const app = writesApp();
const MIB = 1024 * 1024;
const TOO_LARGE = 'Request body is larger than 1 MiB.';
const NOT_OBJECT = 'Request body must be a JSON object.';
const CLIENT = { name: 'Acme Labs', kind: 'laboratory' };

/** POST /v1/clients with the body and headers exactly as given (a stream is sent without Content-Length). */
async function post(body: BodyInit, headers: Record<string, string> = {}): Promise<CallResult> {
  const response = await app.request('/v1/clients', {
    method: 'POST',
    headers: { Authorization: `Bearer ${PUBLIC_KEY}`, ...headers },
    body,
    duplex: 'half',
  } as RequestInit);
  return (await readResponse(response, { method: 'POST', path: '/v1/clients' })) as CallResult;
}

/** A JSON object of exactly `size` bytes, whose one member `padding` is unknown to every write. */
function padded(size: number): string {
  const text = `{"padding":"${'x'.repeat(size - 14)}"}`;
  expect(text.length).toBe(size);
  return text;
}

/** The bytes as a stream of 64 KiB chunks: a body without Content-Length. */
function stream(bytes: Uint8Array, chunk = 64 * 1024): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (let offset = 0; offset < bytes.byteLength; offset += chunk) controller.enqueue(bytes.slice(offset, offset + chunk));
      controller.close();
    },
  });
}

const utf8 = (text: string) => new TextEncoder().encode(text);
const JSON_TYPE = { 'Content-Type': 'application/json' };

/** The body was read and parsed: the answer is the strict schema's 400 naming the unknown member. */
function expectRead(result: CallResult): void {
  expectError(result, { status: 400, code: 'parameter_invalid', param: 'padding' });
}

function expectTooLarge(result: CallResult): void {
  expectError(result, { status: 413, code: 'parameter_invalid' });
  expect(result.json.error.message).toBe(TOO_LARGE);
}

describe('the 1 MiB limit', () => {
  it('answers 413 to a declared Content-Length over 1 MiB before reading the body', async () => {
    expectTooLarge(await post('{}', { ...JSON_TYPE, 'Content-Length': String(MIB + 1) }));
  });

  it('reads a body of exactly 1 MiB sent with its Content-Length', async () => {
    const body = padded(MIB);
    expectRead(await post(body, { ...JSON_TYPE, 'Content-Length': String(MIB) }));
  });

  it('answers 413 to a body of 1 MiB and one byte sent with its Content-Length', async () => {
    expectTooLarge(await post(padded(MIB + 1), { ...JSON_TYPE, 'Content-Length': String(MIB + 1) }));
  });

  it('reads a body of exactly 1 MiB sent as a stream without Content-Length', async () => {
    expectRead(await post(stream(utf8(padded(MIB))), JSON_TYPE));
  });

  it('answers 413 to a body of 1 MiB and one byte sent as a stream without Content-Length', async () => {
    expectTooLarge(await post(stream(utf8(padded(MIB + 1))), JSON_TYPE));
  });

  // "1e1" and "0x10" read as small numbers, but they are not a length: the body is counted as it arrives.
  // In-process, a Request may carry more than its Content-Length says (over a socket, Node's
  // parser cuts the body at the declared length): still 413 past 1 MiB.
  it('answers 413 to a body over 1 MiB whose Content-Length says 10 bytes, and reads one of exactly 1 MiB', async () => {
    expectTooLarge(await post(padded(MIB + 1), { ...JSON_TYPE, 'Content-Length': '10' }));
    expectRead(await post(padded(MIB), { ...JSON_TYPE, 'Content-Length': '10' }));
  });

  it.each([['1e1'], ['0x10'], ['+10']])('counts the bytes of a body whose Content-Length is %s: over 1 MiB is 413', async (declared) => {
    expectTooLarge(await post(stream(utf8(padded(MIB + 1))), { ...JSON_TYPE, 'Content-Length': declared }));
  });
});

describe('decoding', () => {
  it('answers a body with a byte order mark the same whether it arrives in one chunk or several', async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(JSON.stringify(CLIENT))]);
    const whole = await post(stream(bytes, bytes.byteLength), JSON_TYPE);
    const split = await post(stream(bytes, 5), JSON_TYPE);
    expectStatus(whole, 201);
    expectStatus(split, 201);
    expect(split.json).toMatchObject(CLIENT);
  });
});

describe('a body that is not a JSON object', () => {
  it.each([['[]'], ['[{"name":"Acme Labs"}]'], ['null'], ['1'], ['"text"'], ['true'], ['false']])(
    'answers 400 "%s" with the exact message',
    async (text) => {
      const result = await call(app, '/v1/clients', { method: 'POST', body: text });
      expectError(result, { status: 400, code: 'parameter_invalid' });
      expect(result.json.error.message).toBe(NOT_OBJECT);
    },
  );
});

describe('nesting depth', () => {
  it('counts siblings at their own depth: 40 sibling objects and 40 sibling arrays in one array are 3 levels', async () => {
    const padding = `[${Array.from({ length: 40 }, () => '{}').join(',')},${Array.from({ length: 40 }, () => '[]').join(',')}]`;
    expectRead(await call(app, '/v1/clients', { method: 'POST', body: `{"padding":${padding}}` }));
  });

  it('closes objects and arrays alike: 40 sibling objects, then 40 sibling arrays, each alone', async () => {
    for (const sibling of ['{}', '[]', '{"a":[]}', '[{}]']) {
      const body = `{"padding":[${Array.from({ length: 40 }, () => sibling).join(',')}]}`;
      expectRead(await call(app, '/v1/clients', { method: 'POST', body }));
    }
  });
});

describe('Content-Type', () => {
  it.each([
    ['application/json ; charset=utf-8'],
    ['application/json;charset=utf-8'],
    ['Application/JSON'],
    ['application/vnd.api+json'],
    ['APPLICATION/VND.API+JSON; charset=utf-8'],
    ['application/merge-patch+json'],
  ])('accepts %s', async (type) => {
    const result = await post(JSON.stringify(CLIENT), { 'Content-Type': type });
    expectStatus(result, 201);
    expect(result.json).toMatchObject(CLIENT);
  });

  it.each([
    ['xapplication/foo+json'],
    ['application/foo+jsonx'],
    ['application/foo+json+xml'],
    ['text/json'],
    ['application/jsonx'],
    ['text/plain'],
  ])('refuses %s with a 400 quoting it', async (type) => {
    const result = await post(JSON.stringify(CLIENT), { 'Content-Type': type });
    expectError(result, { status: 400, code: 'parameter_invalid', param: 'Content-Type' });
    expect(result.json.error.message).toBe(
      `Request bodies must be JSON sent with Content-Type: application/json; received Content-Type: ${JSON.stringify(type)}.`,
    );
  });

  it('says that no Content-Type was sent when a body comes without one', async () => {
    // Bytes, unlike text, get no Content-Type from fetch.
    const result = await post(utf8(JSON.stringify(CLIENT)));
    expectError(result, { status: 400, code: 'parameter_invalid', param: 'Content-Type' });
    expect(result.json.error.message).toBe(
      'Request bodies must be JSON sent with Content-Type: application/json; received no Content-Type.',
    );
  });
});
