// Reading a request body as the JSON object every write takes (SANDBOX.md, "Errors"): a POST
// without a body is an empty object; anything but a JSON object is a clear 400, never a 500.
import { ApiError } from '../errors.js';
import { quoted } from './messages.js';

export const MAX_BODY_BYTES = 1024 * 1024;
/** No request of the reference nests deeper than 3; 32 leaves room and keeps recursion safe. */
export const MAX_BODY_DEPTH = 32;

function tooLarge(): ApiError {
  return new ApiError('parameter_invalid', { status: 413, message: 'Request body is larger than 1 MiB.' });
}

async function readLimited(request: Request): Promise<Uint8Array> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) throw tooLarge();
  // With a declared length the HTTP layer delivers exactly that many bytes: read them at once
  // (@hono/node-server reads such bodies without web streams). Without one, count while reading.
  if (declared !== null && /^\d+$/.test(declared)) return new Uint8Array(await request.arrayBuffer());
  if (request.body === null) return new Uint8Array(0);
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
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

function isJsonContentType(value: string): boolean {
  const mediaType = value.split(';', 1)[0]?.trim().toLowerCase() ?? '';
  return mediaType === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType);
}

/** The body's bytes; a connection that closes mid-body is the client's problem, never a 500. */
async function readBytes(request: Request): Promise<Uint8Array> {
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
  if (bytes.byteLength === 0) return {};
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
    text = decoder.decode(bytes);
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
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 92 /* \\ */) i++;
      else if (char === 34 /* " */) inString = false;
    } else if (char === 34) inString = true;
    else if (char === 123 /* { */ || char === 91 /* [ */) deepest = Math.max(deepest, ++depth);
    else if (char === 125 /* } */ || char === 93 /* ] */) depth--;
  }
  return deepest;
}
