// Reading a request body as the JSON object every write takes (docs/behaviour.md, "Bodies"): a POST
// without a body is an empty object; anything but a JSON object is a clear 400, never a 500.
import { ApiError } from '../errors.js';
import { requireJsonText } from './json-syntax.js';
import { quoted } from './messages.js';

export const MAX_BODY_BYTES = 1024 * 1024;
/** No request of the reference nests deeper than 3; 32 leaves room and keeps recursion safe. */
export const MAX_BODY_DEPTH = 32;
/**
 * From this size on, a body is checked to be JSON before JSON.parse sees it: a failed parse of
 * large text keeps that text alive until a full gc (src/http/json-syntax.ts). Below it, V8
 * allocates the text in the young generation, where a failed parse costs nothing lasting.
 */
const CHECKED_BODY_BYTES = 64 * 1024;

function tooLarge(): ApiError {
  return new ApiError('parameter_invalid', { status: 413, message: 'Request body is larger than 1 MiB.' });
}

/** A body as the chunks it arrived in, and their total size. */
interface BodyBytes {
  chunks: Uint8Array[];
  size: number;
}

async function readLimited(request: Request): Promise<BodyBytes> {
  const declared = request.headers.get('content-length');
  // Without a declared length (Number(null) is 0), the body is counted as it is read below.
  if (Number(declared) > MAX_BODY_BYTES) throw tooLarge();
  // A small body with a declared length arrives whole: read it at once (@hono/node-server reads
  // such bodies without web streams). A large one is kept as the chunks the socket gave, never
  // copied into one buffer (twice, by @hono/node-server's arrayBuffer()): under a flood of large
  // bodies those copies held tens of MiB at a time. Without a length, count while reading.
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) < CHECKED_BODY_BYTES) {
    const bytes = new Uint8Array(await request.arrayBuffer());
    // A Request made in-process (createSandbox().fetch) may carry more than its length says.
    if (bytes.byteLength > MAX_BODY_BYTES) throw tooLarge();
    return { chunks: [bytes], size: bytes.byteLength };
  }
  if (request.body === null) return { chunks: [], size: 0 };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return { chunks, size };
}

/**
 * The chunks as text; throws on bytes that are not UTF-8. One chunk at a time, with no copy of the
 * whole; a decoder of its own, streaming, since a chunk may end inside a character that the next
 * one completes.
 */
function decodeUtf8(chunks: readonly Uint8Array[]): string {
  const streaming = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  let text = '';
  for (const chunk of chunks) text += streaming.decode(chunk, { stream: true });
  return text + streaming.decode();
}

function isJsonContentType(value: string): boolean {
  const mediaType = (value.split(';', 1)[0] as string).trim().toLowerCase();
  return mediaType === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType);
}

/** The body's bytes; a connection that closes mid-body is the client's problem, never a 500. */
async function readBytes(request: Request): Promise<BodyBytes> {
  try {
    return await readLimited(request);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError('parameter_invalid', {
      message: 'The request body could not be read: the connection closed before it was complete.',
    });
  }
}

export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const bytes = await readBytes(request);
  if (bytes.size === 0) return {};
  const contentType = request.headers.get('content-type');
  if (contentType === null || !isJsonContentType(contentType)) {
    throw new ApiError('parameter_invalid', {
      param: 'Content-Type',
      message: `Request bodies must be JSON sent with Content-Type: application/json; received ${contentType ? `Content-Type: ${quoted(contentType)}` : 'no Content-Type'}.`,
    });
  }
  let text: string;
  let value: unknown;
  try {
    text = decodeUtf8(bytes.chunks);
    // Memory only: requireJsonText throws exactly where JSON.parse would (test/json-syntax.test.ts).
    if (bytes.size >= CHECKED_BODY_BYTES) requireJsonText(text);
    value = JSON.parse(text);
  } catch {
    throw new ApiError('parameter_invalid', { message: 'Request body is not valid JSON (UTF-8).' });
  }
  if (nestingDepth(text) > MAX_BODY_DEPTH) {
    throw new ApiError('parameter_invalid', { message: `Request body nests objects and arrays deeper than ${MAX_BODY_DEPTH} levels.` });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError('parameter_invalid', { message: 'Request body must be a JSON object.' });
  }
  return value as Record<string, unknown>;
}

/**
 * The deepest nesting of objects and arrays in valid JSON text, counted without recursion, so
 * that later steps (fingerprints, validation) that walk the value recursively never meet a body
 * deep enough to exhaust the stack.
 */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  // `!==`: the skip of a string below never takes i past the end.
  for (let i = 0; i !== text.length; i++) {
    const char = text.charCodeAt(i);
    if (char === 34 /* " */) {
      // The text is valid JSON: skip the string to its closing quote in one native step.
      STRING_REST.lastIndex = i + 1;
      if (!STRING_REST.test(text)) break;
      i = STRING_REST.lastIndex - 1;
    } else if (char === 123 /* { */ || char === 91 /* [ */) deepest = Math.max(deepest, ++depth);
    else if (char === 125 /* } */ || char === 93 /* ] */) depth--;
  }
  return deepest;
}

/**
 * The rest of a valid JSON string after its opening quote, closing quote included. Unrolled
 * (plain runs between escapes) so that the engine keeps no backtracking entry per character.
 */
const STRING_REST = /[^"\\]*(?:\\.[^"\\]*)*"/y;
