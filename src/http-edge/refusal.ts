// What to answer to a request Node's HTTP parser refuses before the app sees it (issue #18): the
// status, a message that says what to fix, and what the answer may depend on that only the raw
// bytes can tell (the method, so a HEAD gets no body; whether a browser sent it, for CORS).
// Pure functions of the error Node reports and the bytes that arrived, so they are testable
// without a socket.
import { isUtf8 } from 'node:buffer';
import { quoted } from '../http/messages.js';

/** What Node tells us about a refused request (the `clientError` event's error). */
export interface ParserError {
  code?: string;
  /** llhttp's own words, e.g. "Invalid header value char" (fixed text, never client input). */
  reason?: string;
  /** The chunk that was being parsed: the bytes that arrived, or the part that held the fault. */
  rawPacket?: Buffer;
  /** Where in rawPacket the parser stopped: at, or just past, the offending byte. */
  bytesParsed?: number;
}

export interface ParserLimits {
  maxHeaderBytes: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
}

export interface Refusal {
  status: 400 | 408 | 431;
  reason: string;
  message: string;
  /** The header at fault, when the parser tells which and its name is a valid one. */
  param?: string;
  /** The method of the refused request, as far as the bytes show it (a HEAD gets no body). */
  method: string | undefined;
  /** Whether the request carried Origin; undefined when its header section did not arrive whole. */
  origin: boolean | undefined;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Faults of the request line but for its target (HPE_INVALID_URL, read wherever the parser stopped). */
const REQUEST_LINE_CODES = new Set<string | undefined>(['HPE_INVALID_CONSTANT', 'HPE_INVALID_METHOD', 'HPE_INVALID_VERSION']);

const hex = (byte: number) => byte.toString(16).toUpperCase().padStart(2, '0');

/** The names HTTP gives the control bytes a client is most likely to send by mistake. */
function controlName(byte: number): string {
  const names: Record<number, string> = {
    0: 'a NUL byte',
    9: 'a tab',
    10: 'a line feed',
    13: 'a carriage return',
    127: 'a DEL byte',
  };
  return `${names[byte] ?? 'the control byte'} (0x${hex(byte)})`;
}

/**
 * The UTF-8 sequence that starts at `at` (a byte of 0x80 or more), if it is a whole and valid one:
 * as many bytes as its lead byte announces. A lead that starts none (a continuation byte, 0xC0,
 * 0xC1, 0xF5 and above), a sequence cut short or a wrong continuation is not valid UTF-8.
 */
function utf8SequenceAt(bytes: Buffer, at: number): Buffer | undefined {
  const lead = bytes[at] ?? 0;
  const sequence = bytes.subarray(at, at + (lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2));
  return isUtf8(sequence) ? sequence : undefined;
}

/** How to send a byte (or the character it starts) that may not appear raw in a request target. */
function percentEncodeAdvice(bytes: Buffer, at: number): string {
  const byte = bytes[at] ?? 0;
  if (byte >= 0x80) {
    const sequence = utf8SequenceAt(bytes, at);
    if (sequence !== undefined) {
      const char = sequence.toString('utf8');
      const encoded = [...sequence].map((b) => `%${hex(b)}`).join('');
      return `the character ${quoted(char)}, which is not ASCII: percent-encode it (${char} → ${encoded})`;
    }
    return `the byte 0x${hex(byte)}, which is neither ASCII nor UTF-8: percent-encode it (%${hex(byte)})`;
  }
  if (byte === 0x20) return 'a space: percent-encode it (%20)';
  return `${controlName(byte)}: percent-encode it (%${hex(byte)})`;
}

/** Where the request that holds `at` begins in the packet: after the last blank line before it. */
function requestStart(bytes: Buffer, at: number): number {
  let start = 0;
  for (let blank = bytes.indexOf('\r\n\r\n'); blank !== -1 && blank + 4 <= at; blank = bytes.indexOf('\r\n\r\n', blank + 4)) {
    start = blank + 4;
  }
  // Stray line breaks before a request line are allowed (RFC 9112, 2.2).
  while (bytes[start] === 0x0d || bytes[start] === 0x0a) start++;
  return start;
}

function lineAround(bytes: Buffer, at: number): { start: number; text: string } {
  const start = bytes.lastIndexOf(0x0a, Math.max(0, at - 1)) + 1;
  const newline = bytes.indexOf(0x0a, at);
  const end = newline === -1 ? bytes.length : newline;
  return { start, text: bytes.subarray(start, end).toString('latin1').replace(/\r$/, '') };
}

/**
 * The request line's method, when the packet shows where that request begins: what stands before
 * its first space. Only a HEAD changes the answer (no body), so nothing else is checked.
 */
function methodOf(bytes: Buffer, start: number): string | undefined {
  const space = bytes.indexOf(0x20, start);
  return space === -1 ? undefined : bytes.subarray(start, space).toString('latin1');
}

/** Whether the request's header section, when it arrived whole, holds an Origin header. */
function originOf(bytes: Buffer, start: number): boolean | undefined {
  const end = bytes.indexOf('\r\n\r\n', start);
  if (end === -1) return undefined;
  return /\r\norigin[ \t]*:/i.test(bytes.subarray(start, end + 2).toString('latin1'));
}

/** A header name as a message shows it: plain when it is a valid name, else quoted and escaped. */
function shownHeader(name: string): string {
  return TOKEN.test(name) && name.length <= 60 ? name : quoted(name);
}

/** The first byte of the request target that may not appear raw in it, and where it is. */
function badTargetByte(bytes: Buffer, lineStart: number): number | undefined {
  const targetStart = bytes.indexOf(0x20, lineStart) + 1;
  if (targetStart === 0) return undefined;
  const lineEnd = bytes.indexOf('\r\n', targetStart);
  // From lineEnd back; -1 (no line end) counts from the packet's end, as a Buffer's offsets do.
  const versionAt = bytes.lastIndexOf(' HTTP/', lineEnd);
  const end = versionAt > targetStart ? versionAt : lineEnd === -1 ? bytes.length : lineEnd;
  for (let i = targetStart; i < end; i++) {
    const byte = bytes[i] ?? 0;
    if (byte <= 0x20 || byte >= 0x7f) return i;
  }
  return undefined;
}

function requestLineMessage(error: ParserError, bytes: Buffer, lineStart: number): string {
  const line = lineAround(bytes, lineStart).text;
  if (error.code === 'HPE_INVALID_METHOD') {
    if (bytes[lineStart] === 0x16 && bytes[lineStart + 1] === 0x03)
      return 'The request is a TLS handshake: this port speaks plain HTTP, so use http://, not https://.';
    const method = line.replace(/ .*/s, '');
    if (/^[a-z]+$/i.test(method) && method !== method.toUpperCase())
      return `The method ${quoted(method)} must be upper-case: ${method.toUpperCase()}.`;
    return `The request line must start with an HTTP method (GET, POST, PATCH, DELETE, HEAD or OPTIONS); received ${quoted(line.slice(0, 40))}.`;
  }
  // The version is what follows the last " HTTP/", with whatever trails it; with none, what
  // follows the target (the second space), and that space is no fault of the target's.
  const versionAt = line.lastIndexOf(' HTTP/');
  const afterTarget = line.indexOf(' ', line.indexOf(' ') + 1);
  if (error.code === 'HPE_INVALID_VERSION' || (versionAt === -1 && afterTarget !== -1)) {
    const version = line.slice((versionAt === -1 ? afterTarget : versionAt) + 1);
    return `The request line must end with HTTP/1.1; received ${quoted(version)}.`;
  }
  const bad = badTargetByte(bytes, lineStart);
  if (bad !== undefined) return `The request line holds ${percentEncodeAdvice(bytes, bad)}.`;
  return 'The request line must be a method, a space, the path (percent-encoded), a space and HTTP/1.1.';
}

function headerMessage(reason: string, bytes: Buffer, at: number): { message: string; param?: string } {
  const { start, text } = lineAround(bytes, at);
  if (/whitespace after header value/i.test(reason) || (start === at && (bytes[at] === 0x20 || bytes[at] === 0x09))) {
    // A line that starts with whitespace continues the one before it (obsolete line folding).
    const previous = lineAround(bytes, Math.max(0, start - 2));
    const name = previous.text.replace(/:.*/s, '');
    return {
      message: `The header ${shownHeader(name)} continues on a line that starts with whitespace (obsolete line folding): send each header on one line.`,
      ...(TOKEN.test(name) ? { param: name } : {}),
    };
  }
  const colon = text.indexOf(':');
  const nameEnd = colon === -1 ? text.length : colon;
  const name = text.slice(0, nameEnd);
  const offset = at - start;
  const byte = bytes[at] ?? 0;
  // In the name, or where its colon should be (a line without one): llhttp's own words for that
  // ("Invalid header token") differ between its versions, the position does not.
  if (offset <= nameEnd) {
    const what =
      byte >= 0x80
        ? `the byte 0x${hex(byte)}, which is not ASCII`
        : byte > 0x20 && byte < 0x7f
          ? `${quoted(String.fromCharCode(byte))}, which HTTP does not allow in a header name`
          : byte === 0x20 || byte === 0x09
            ? 'whitespace, which HTTP does not allow in a header name or before its colon'
            : controlName(byte);
    return {
      message: `The header name ${shownHeader(name.trimEnd())} holds ${what}: header names are letters, digits and !#$%&'*+-.^_\`|~.`,
    };
  }
  const param = TOKEN.test(name) ? { param: name } : {};
  if (byte === 0x0a || /CR/.test(reason)) {
    return {
      message: `The value of the header ${shownHeader(name)} holds a line feed (0x0A) without a carriage return: a header value cannot hold a line break, and header lines end with CRLF.`,
      ...param,
    };
  }
  return {
    message: `The value of the header ${shownHeader(name)} holds ${controlName(byte)}, which HTTP does not allow in header values: remove it or encode the value (e.g. percent-encoding or base64).`,
    ...param,
  };
}

function framingMessage(error: ParserError, reason: string, bytes: Buffer, at: number): { message: string; param?: string } {
  switch (error.code) {
    case 'HPE_INVALID_TRANSFER_ENCODING':
      if (/Content-Length/i.test(reason))
        return {
          message: 'Content-Length and Transfer-Encoding cannot be sent together: send one of them.',
          param: 'Transfer-Encoding',
        };
      return { message: 'Transfer-Encoding must be chunked, the only transfer coding the sandbox reads.', param: 'Transfer-Encoding' };
    case 'HPE_INVALID_CONTENT_LENGTH': {
      const value = lineAround(bytes, at).text.replace(/[^:]*:\s*/, '');
      return { message: `Content-Length must be a number of bytes, digits only; received ${quoted(value)}.`, param: 'Content-Length' };
    }
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return { message: 'Content-Length is sent more than once: send it once.', param: 'Content-Length' };
    case 'HPE_INVALID_CHUNK_SIZE':
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return {
        message:
          'The chunked body is not valid: each chunk starts with its size in hexadecimal and CRLF, and a chunk of size 0 ends the body.',
      };
    default:
      return { message: `The request is not valid HTTP/1.1 (${reason || error.code || 'unreadable'}).` };
  }
}

/**
 * The answer to a request the parser refused. `known` is given when the parser had already read
 * the request's headers (the fault, or the time-out, is in its body): its method and Origin.
 */
export function refusalOf(error: ParserError, limits: ParserLimits, known?: { method: string; origin: boolean }): Refusal {
  const bytes = error.rawPacket;
  const reason = error.reason ?? '';
  const at = Math.min(error.bytesParsed ?? 0, bytes?.length ?? 0);
  const start = bytes === undefined ? 0 : requestStart(bytes, at);
  const method = known?.method ?? (bytes === undefined ? undefined : methodOf(bytes, start));
  const origin = known?.origin ?? (bytes === undefined ? undefined : originOf(bytes, start));
  const refused = (status: Refusal['status'], phrase: string, words: { message: string; param?: string }): Refusal => ({
    status,
    reason: phrase,
    ...words,
    method,
    origin,
  });

  if (error.code === 'HPE_HEADER_OVERFLOW') {
    const kib = Math.round(limits.maxHeaderBytes / 1024);
    return refused(431, 'Request Header Fields Too Large', {
      message: `The request line and headers are larger than ${kib} KiB: send long values in the body of a POST, or shorten the query.`,
    });
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
    return refused(408, 'Request Timeout', {
      message: known
        ? `The request body did not arrive in time: a whole request must arrive within ${seconds(limits.requestTimeoutMs)}.`
        : `The request headers did not arrive in time: they must arrive within ${seconds(limits.headersTimeoutMs)}.`,
    });
  }
  // No packet: a request cut short (the client closed its side mid-request, HPE_INVALID_EOF_STATE,
  // which Node reports without the bytes) or an error of the socket itself.
  if (bytes === undefined) return refused(400, 'Bad Request', { message: 'The request is not valid HTTP/1.1.' });
  if (REQUEST_LINE_CODES.has(error.code) && lineAround(bytes, at).start <= start) {
    return refused(400, 'Bad Request', { message: requestLineMessage(error, bytes, start) });
  }
  if (error.code === 'HPE_INVALID_HEADER_TOKEN' || error.code === 'HPE_CR_EXPECTED' || error.code === 'HPE_LF_EXPECTED') {
    return refused(400, 'Bad Request', headerMessage(reason, bytes, at));
  }
  if (error.code === 'HPE_INVALID_URL') {
    // A fault in the target, on the request line, or past a line break inside the target that
    // ended the line early: name the byte all the same.
    return refused(400, 'Bad Request', { message: requestLineMessage(error, bytes, start) });
  }
  return refused(400, 'Bad Request', framingMessage(error, reason, bytes, at));
}
