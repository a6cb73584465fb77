// HTTP/1.1 on the wire for the socket fuzz and the socket tests (issue #18): a strict parser of
// what a server sends back (status line, header lines, framing by Content-Length or chunks, none
// for a HEAD), and the checks every answer of the sandbox must pass as bytes: the common headers
// with their canonical names, no body to a HEAD, nothing after a `Connection: close` answer.

export interface WireAnswer {
  status: number;
  /** Header lines as sent: names in their case, in their order. */
  headers: [string, string][];
  body: Buffer;
}

export interface ParsedWire {
  answers: WireAnswer[];
  /** Bytes after the last complete answer. */
  rest: Buffer;
  /** Why the bytes are not HTTP/1.1, if they are not. */
  problem?: string;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Headers of the transport, which Node writes and which may differ between two answers. */
export const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/** The spelling of every header the sandbox writes itself (src/http/reply.ts, src/app.ts). */
export const CANONICAL_NAMES: Record<string, string> = Object.fromEntries(
  [
    'Content-Type',
    'RateLimit-Policy',
    'Request-Id',
    'Retry-After',
    'Allow',
    'Idempotent-Replayed',
    'Sandbox-Fault',
    'Access-Control-Allow-Origin',
    'Access-Control-Expose-Headers',
    'Access-Control-Allow-Methods',
    'Access-Control-Allow-Headers',
    'Access-Control-Max-Age',
    'Date',
    'Connection',
    'Keep-Alive',
    'Content-Length',
    'Transfer-Encoding',
  ].map((name) => [name.toLowerCase(), name]),
);

export function header(answer: WireAnswer, name: string): string | undefined {
  const wanted = name.toLowerCase();
  return answer.headers.find(([key]) => key.toLowerCase() === wanted)?.[1];
}

/**
 * Parses the answers to `methods` (one per request sent, in order) from the bytes received.
 * `closed`: the server closed the connection, so a body without framing ends there.
 */
export function parseWire(raw: Buffer, methods: readonly string[], closed: boolean): ParsedWire {
  const answers: WireAnswer[] = [];
  let at = 0;
  for (const method of methods) {
    if (at >= raw.length) break;
    const headEnd = raw.indexOf('\r\n\r\n', at);
    if (headEnd === -1)
      return { answers, rest: raw.subarray(at), problem: `an answer's head has no end: ${show(raw.subarray(at, at + 200))}` };
    const lines = raw.subarray(at, headEnd).toString('latin1').split('\r\n');
    const statusLine = /^HTTP\/1\.1 (\d{3}) [^\r\n]*$/.exec(lines[0] ?? '');
    if (statusLine === null)
      return { answers, rest: raw.subarray(at), problem: `not a status line: ${show(Buffer.from(lines[0] ?? '', 'latin1'))}` };
    const status = Number(statusLine[1]);
    const headers: [string, string][] = [];
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon);
      if (colon <= 0 || !TOKEN.test(name) || /[\r\n\0]/.test(line))
        return { answers, rest: raw.subarray(at), problem: `not a header line: ${show(Buffer.from(line, 'latin1'))}` };
      headers.push([name, line.slice(colon + 1).trim()]);
    }
    let bodyStart = headEnd + 4;
    const answer: WireAnswer = { status, headers, body: Buffer.alloc(0) };
    const length = header(answer, 'content-length');
    const chunked = /chunked/i.test(header(answer, 'transfer-encoding') ?? '');
    if (status === 100) {
      // An interim answer: the final one follows for the same request.
      at = bodyStart;
      continue;
    }
    if (method === 'HEAD' || status === 204 || status === 304 || (status >= 100 && status < 200)) {
      at = bodyStart;
    } else if (chunked) {
      const parts: Buffer[] = [];
      for (;;) {
        const lineEnd = raw.indexOf('\r\n', bodyStart);
        if (lineEnd === -1) return { answers, rest: raw.subarray(at), problem: 'a chunked body is cut short' };
        const size = Number.parseInt(raw.subarray(bodyStart, lineEnd).toString('latin1'), 16);
        if (!Number.isFinite(size)) return { answers, rest: raw.subarray(at), problem: 'a chunk size is not hexadecimal' };
        if (size === 0) {
          const end = raw.indexOf('\r\n\r\n', lineEnd);
          if (end === -1) return { answers, rest: raw.subarray(at), problem: 'a chunked body has no end' };
          bodyStart = end + 4;
          break;
        }
        parts.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
        bodyStart = lineEnd + 2 + size + 2;
      }
      answer.body = Buffer.concat(parts);
      at = bodyStart;
    } else if (length !== undefined) {
      if (!/^\d+$/.test(length)) return { answers, rest: raw.subarray(at), problem: `Content-Length ${length}` };
      const end = bodyStart + Number(length);
      if (end > raw.length) return { answers, rest: raw.subarray(at), problem: `a body shorter than its Content-Length ${length}` };
      answer.body = raw.subarray(bodyStart, end);
      at = end;
    } else if (closed) {
      answer.body = raw.subarray(bodyStart);
      at = raw.length;
    } else {
      return { answers, rest: raw.subarray(at), problem: 'an answer with neither Content-Length nor chunks on an open connection' };
    }
    answers.push(answer);
    if (/close/i.test(header(answer, 'connection') ?? '')) break;
  }
  return { answers, rest: raw.subarray(at) };
}

/** What is wrong with one answer as bytes, whatever its status (the body is the oracle's). */
export function wireProblems(method: string, answer: WireAnswer, isDocumentation: boolean): string[] {
  const problems: string[] = [];
  if (!isDocumentation || answer.status >= 400) {
    if (header(answer, 'request-id') === undefined) problems.push('no Request-Id');
    if (header(answer, 'ratelimit-policy') === undefined) problems.push('no RateLimit-Policy');
  }
  for (const [name] of answer.headers) {
    const canonical = CANONICAL_NAMES[name.toLowerCase()];
    if (canonical !== undefined && canonical !== name) problems.push(`header name ${name}, not ${canonical}`);
  }
  if (method === 'HEAD' && answer.body.length > 0) problems.push('a body in the answer to a HEAD');
  return problems;
}

/** Bytes as a message shows them: printable ASCII as is, the rest as \xNN. */
export function show(bytes: Buffer, max = 300): string {
  let text = '';
  for (const byte of bytes.subarray(0, max)) {
    text +=
      byte >= 0x20 && byte < 0x7f
        ? String.fromCharCode(byte)
        : byte === 0x0d
          ? '\\r'
          : byte === 0x0a
            ? '\\n'
            : `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  return bytes.length > max ? `${text}…(${bytes.length} bytes)` : text;
}
