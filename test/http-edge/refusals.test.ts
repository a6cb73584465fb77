// What a client reads when Node's HTTP parser refuses its request before the app sees it (issue
// #18; docs/behaviour.md, "Slow clients"): through a real loopback server started as the CLI
// starts it, each fault's exact status line, message and param, whether the answer carries CORS
// (only to a request with Origin, or when nobody can tell) and whether it has a body (not to a
// HEAD). A last part calls refusalOf itself for what Node 20 to 24 never send down a socket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusalOf } from '../../src/http-edge/refusal.js';
import { FAST_LIMITS, type Loopback, rawRequest, startLoopback } from '../abuse/loopback.js';
import { type ExpectedRefusal, expectRefusal, halfClosed } from './answer.js';

/** Bytes as written: each character of a string one byte (latin1), so "\xff" is the byte 0xFF. */
const latin1 = (text: string) => Buffer.from(text, 'latin1');
const utf8 = (text: string) => Buffer.from(text, 'utf8');

const HOST = 'Host: 127.0.0.1\r\n';
const AUTH = 'Authorization: Bearer svc_test_sandbox_public\r\n';
const ORIGIN = 'Origin: https://app.example\r\n';

const BAD_METHOD = 'The request line must start with an HTTP method (GET, POST, PATCH, DELETE, HEAD or OPTIONS); received ';
const BAD_LINE = 'The request line must be a method, a space, the path (percent-encoded), a space and HTTP/1.1.';
const NAME_RULE = "header names are letters, digits and !#$%&'*+-.^_`|~.";
const NOT_IN_VALUES = 'which HTTP does not allow in header values: remove it or encode the value (e.g. percent-encoding or base64).';
const BARE_LF =
  'holds a line feed (0x0A) without a carriage return: a header value cannot hold a line break, and header lines end with CRLF.';
const FOLDED = 'continues on a line that starts with whitespace (obsolete line folding): send each header on one line.';
const BAD_CHUNKS =
  'The chunked body is not valid: each chunk starts with its size in hexadecimal and CRLF, and a chunk of size 0 ends the body.';

const refused = (message: string, more: Partial<ExpectedRefusal> = {}): ExpectedRefusal => ({
  status: 400,
  reason: 'Bad Request',
  message,
  cors: false,
  ...more,
});

interface Case {
  name: string;
  /** Sent in one write, or several 150 ms apart. */
  send: Buffer | Buffer[];
  expected: ExpectedRefusal;
}

let server: Loopback;

beforeAll(async () => {
  server = await startLoopback();
});

afterAll(async () => {
  await server.close();
});

/** The answer to `send`; packets sent apart by more than a busy event loop takes to read one. */
async function refusalTo(send: Buffer | Buffer[]) {
  return rawRequest(server.port, Array.isArray(send) ? send : [send], { gapMs: 150 });
}

const requestLine: Case[] = [
  {
    name: 'TLS handshake bytes (https:// to a plain HTTP port)',
    send: Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03]),
    // Cut short of a header section: nobody can tell whether a browser sent it, so CORS.
    expected: refused('The request is a TLS handshake: this port speaks plain HTTP, so use http://, not https://.', { cors: true }),
  },
  {
    name: 'the TLS record byte without a TLS version after it',
    send: latin1('\x16\x01\x02\x03'),
    expected: refused(`${BAD_METHOD}"\\u0016\\u0001\\u0002\\u0003".`, { cors: true }),
  },
  {
    name: 'a TLS version byte after another first byte',
    send: latin1('A\x03\x02'),
    expected: refused(`${BAD_METHOD}"A\\u0003\\u0002".`, { cors: true }),
  },
  {
    name: 'a lower-case method',
    send: latin1(`get /v1/jobs HTTP/1.1\r\n${HOST}\r\n`),
    expected: refused('The method "get" must be upper-case: GET.'),
  },
  {
    name: 'a method in mixed case',
    send: latin1(`Post /v1/jobs HTTP/1.1\r\n${HOST}\r\n`),
    expected: refused('The method "Post" must be upper-case: POST.'),
  },
  {
    name: 'a lower-case word after a digit is no method',
    send: latin1(`9get /v1/jobs HTTP/1.1\r\n${HOST}\r\n`),
    expected: refused(`${BAD_METHOD}"9get /v1/jobs HTTP/1.1".`),
  },
  {
    name: 'a lower-case word before a digit is no method',
    send: latin1(`get9 /v1/jobs HTTP/1.1\r\n${HOST}\r\n`),
    expected: refused(`${BAD_METHOD}"get9 /v1/jobs HTTP/1.1".`),
  },
  {
    name: 'an unknown method',
    send: latin1(`FOO /v1/jobs HTTP/1.1\r\n${HOST}\r\n`),
    expected: refused(`${BAD_METHOD}"FOO /v1/jobs HTTP/1.1".`),
  },
  {
    name: 'an unknown method on a long line: its first 40 characters',
    send: latin1(`FOO /v1/jobs?q=${'a'.repeat(50)} HTTP/1.1\r\n${HOST}\r\n`),
    expected: refused(`${BAD_METHOD}"FOO /v1/jobs?q=${'a'.repeat(25)}".`),
  },
  {
    name: 'an unknown method, the packet ending with the line',
    send: latin1('FOO /v1/jobs HTTP/1.1'),
    expected: refused(`${BAD_METHOD}"FOO /v1/jobs HTTP/1.1".`, { cors: true }),
  },
  {
    name: 'an unknown method on a line holding a carriage return',
    send: latin1(`FOO /a\rb HTTP/1.1\r\n${HOST}\r\n`),
    expected: refused(`${BAD_METHOD}"FOO /a\\rb HTTP/1.1".`),
  },
  {
    // No space anywhere: no method can be read, so the answer has its body.
    name: 'HEAD followed by a control byte',
    send: latin1('HEAD\x01'),
    expected: refused(`${BAD_METHOD}"HEAD\\u0001".`, { cors: true }),
  },
  {
    name: 'HTTP/1.2',
    send: latin1(`GET /v1/jobs HTTP/1.2\r\n${HOST}\r\n`),
    expected: refused('The request line must end with HTTP/1.1; received "HTTP/1.2".'),
  },
  {
    name: 'a version with a character after it',
    send: latin1(`GET /v1/jobs HTTP/1.1x\r\n${HOST}\r\n`),
    expected: refused('The request line must end with HTTP/1.1; received "HTTP/1.1x".'),
  },
  {
    name: 'a space after the version: shown with it',
    send: latin1(`GET /v1/jobs HTTP/1.1 \r\n${HOST}\r\n`),
    expected: refused('The request line must end with HTTP/1.1; received "HTTP/1.1 ".'),
  },
  {
    name: 'a misspelt protocol: the version is at fault, not the space before it',
    send: latin1(`GET /v1/jobs HTTX/1.1\r\n${HOST}\r\n`),
    expected: refused('The request line must end with HTTP/1.1; received "HTTX/1.1".'),
  },
  {
    name: 'HTTP/1.2, the packet ending with it',
    send: latin1('GET /v1/jobs HTTP/1.2'),
    expected: refused('The request line must end with HTTP/1.1; received "HTTP/1.2".', { cors: true }),
  },
];

const target: Case[] = [
  {
    name: 'a raw space',
    send: latin1(`GET /v1/jobs?q=a b HTTP/1.1\r\n${HOST}\r\n`),
    expected: refused('The request line holds a space: percent-encode it (%20).'),
  },
  {
    name: 'two spaces after the method',
    send: latin1('GET  HTTP/1.1\r\n\r\n'),
    expected: refused('The request line holds a space: percent-encode it (%20).'),
  },
  {
    name: 'a NUL byte',
    send: latin1(`GET /v1/jobs/a\x00b HTTP/1.1\r\n${HOST}\r\n`),
    expected: refused('The request line holds a NUL byte (0x00): percent-encode it (%00).'),
  },
  {
    name: 'a tab',
    send: latin1(`GET /v1/jobs/a\tb HTTP/1.1\r\n${HOST}\r\n`),
    expected: refused('The request line holds a tab (0x09): percent-encode it (%09).'),
  },
  {
    name: 'a carriage return',
    send: latin1(`GET /v1/jobs/a\rb HTTP/1.1\r\n${HOST}\r\n`),
    expected: refused('The request line holds a carriage return (0x0D): percent-encode it (%0D).'),
  },
  {
    name: 'a DEL byte',
    send: latin1(`GET /v1/jobs/a\x7fb HTTP/1.1\r\n${HOST}\r\n`),
    expected: refused('The request line holds a DEL byte (0x7F): percent-encode it (%7F).'),
  },
  {
    name: 'another control byte',
    send: latin1(`GET /v1/jobs/a\x01b HTTP/1.1\r\n${HOST}\r\n`),
    expected: refused('The request line holds the control byte (0x01): percent-encode it (%01).'),
  },
  {
    name: 'the last control byte',
    send: latin1(`GET /v1/jobs/a\x1fb HTTP/1.1\r\n${HOST}\r\n`),
    expected: refused('The request line holds the control byte (0x1F): percent-encode it (%1F).'),
  },
  {
    name: 'a two-byte UTF-8 character',
    send: utf8(`GET /v1/clients?q=é HTTP/1.1\r\n${HOST}\r\n`),
    expected: refused('The request line holds the character "é", which is not ASCII: percent-encode it (é → %C3%A9).'),
  },
  {
    name: 'a three-byte UTF-8 character with the lowest lead byte (0xE0)',
    send: utf8(`GET /v1/clients?q=क HTTP/1.1\r\n${HOST}\r\n`),
    expected: refused('The request line holds the character "क", which is not ASCII: percent-encode it (क → %E0%A4%95).'),
  },
  {
    name: 'a three-byte UTF-8 character ending the packet',
    send: utf8('GET /v1/clients?q=€'),
    expected: refused('The request line holds the character "€", which is not ASCII: percent-encode it (€ → %E2%82%AC).', { cors: true }),
  },
  {
    name: 'a four-byte UTF-8 character',
    send: utf8(`GET /v1/clients?q=😀 HTTP/1.1\r\n${HOST}\r\n`),
    expected: refused('The request line holds the character "😀", which is not ASCII: percent-encode it (😀 → %F0%9F%98%80).'),
  },
  {
    name: 'a byte that starts no UTF-8 character (0xFF)',
    send: latin1(`GET /v1/jobs/a\xffb HTTP/1.1\r\n${HOST}\r\n`),
    expected: refused('The request line holds the byte 0xFF, which is neither ASCII nor UTF-8: percent-encode it (%FF).'),
  },
  {
    name: 'a continuation byte on its own (0x80)',
    send: latin1(`GET /v1/jobs/a\x80b HTTP/1.1\r\n${HOST}\r\n`),
    expected: refused('The request line holds the byte 0x80, which is neither ASCII nor UTF-8: percent-encode it (%80).'),
  },
  {
    name: 'the first byte of a UTF-8 character, cut short',
    send: latin1('GET /v1/clients?q=\xc3'),
    expected: refused('The request line holds the byte 0xC3, which is neither ASCII nor UTF-8: percent-encode it (%C3).', { cors: true }),
  },
  {
    name: 'a Latin-1 é (not UTF-8)',
    send: latin1(`GET /v1/clients?q=caf\xe9 HTTP/1.1\r\n${HOST}\r\n`),
    expected: refused('The request line holds the byte 0xE9, which is neither ASCII nor UTF-8: percent-encode it (%E9).'),
  },
  {
    // Every byte of the target may stand there: the fault is in its form, which the message cannot name.
    name: 'a target of printable bytes the parser refuses (two @ in an absolute URL)',
    send: latin1(`GET http://a@@b/ HTTP/1.1\r\n${HOST}\r\n`),
    expected: refused(BAD_LINE),
  },
  {
    name: 'the same, with " HTTP/" in a later header',
    send: latin1(`GET http://a@@b/ HTTP/1.1\r\nVia: HTTP/1.1 proxy\r\n\r\n`),
    expected: refused(BAD_LINE),
  },
  {
    name: 'the same, the packet ending with the line',
    send: latin1('GET http://a@@b/ HTTP/1.1'),
    expected: refused(BAD_LINE, { cors: true }),
  },
  {
    name: 'the same without a version',
    send: latin1('GET http://a@@b/\r\n\r\n'),
    expected: refused(BAD_LINE),
  },
];

const strayLineBreaks: Case[] = [
  {
    name: 'CRLF before the request line',
    send: latin1(`\r\nget /v1/jobs HTTP/1.1\r\n${HOST}\r\n`),
    expected: refused('The method "get" must be upper-case: GET.'),
  },
  {
    name: 'LF before the request line',
    send: latin1(`\nget /v1/jobs HTTP/1.1\r\n${HOST}\r\n`),
    expected: refused('The method "get" must be upper-case: GET.'),
  },
  {
    name: 'two CRLF before the request line',
    send: latin1(`\r\n\r\nget /v1/jobs HTTP/1.1\r\n${HOST}\r\n`),
    expected: refused('The method "get" must be upper-case: GET.'),
  },
  {
    name: 'CRLF before a HEAD with Origin',
    send: latin1(`\r\nHEAD /v1/jobs/a\x01b HTTP/1.1\r\n${HOST}${ORIGIN}\r\n`),
    expected: refused('The request line holds the control byte (0x01): percent-encode it (%01).', { cors: true, body: false }),
  },
];

const headOrigin: Case[] = [
  {
    name: 'a HEAD: the headers alone',
    send: latin1(`HEAD /v1/jobs/a\x01b HTTP/1.1\r\n${HOST}\r\n`),
    expected: refused('The request line holds the control byte (0x01): percent-encode it (%01).', { body: false }),
  },
  {
    name: 'a GET with Origin: CORS',
    send: latin1(`GET /v1/jobs/a\x01b HTTP/1.1\r\n${HOST}${ORIGIN}\r\n`),
    expected: refused('The request line holds the control byte (0x01): percent-encode it (%01).', { cors: true }),
  },
  {
    name: 'a header whose name starts with Origin is not Origin',
    send: latin1(`GET /v1/jobs/a\x01b HTTP/1.1\r\n${HOST}Origin-Agent-Cluster: ?1\r\n\r\n`),
    expected: refused('The request line holds the control byte (0x01): percent-encode it (%01).'),
  },
  {
    name: 'an empty origin header, last and in lower case: CORS',
    send: latin1(`GET /v1/jobs/a\x01b HTTP/1.1\r\n${HOST}origin:\r\n\r\n`),
    expected: refused('The request line holds the control byte (0x01): percent-encode it (%01).', { cors: true }),
  },
  {
    name: 'Origin refused for a space before its colon: still CORS',
    send: latin1(`GET /v1/jobs HTTP/1.1\r\n${HOST}Origin : https://app.example\r\n\r\n`),
    expected: refused(
      `The header name Origin holds whitespace, which HTTP does not allow in a header name or before its colon: ${NAME_RULE}`,
      {
        cors: true,
      },
    ),
  },
];

const headerNames: Case[] = [
  {
    name: 'a space inside a header name',
    send: latin1(`GET /v1/jobs HTTP/1.1\r\n${HOST}X Bad: 1\r\n\r\n`),
    expected: refused(
      `The header name "X Bad" holds whitespace, which HTTP does not allow in a header name or before its colon: ${NAME_RULE}`,
    ),
  },
  {
    name: 'a space before the colon',
    send: latin1(`GET /v1/jobs HTTP/1.1\r\n${HOST}X-Bad : 1\r\n\r\n`),
    expected: refused(
      `The header name X-Bad holds whitespace, which HTTP does not allow in a header name or before its colon: ${NAME_RULE}`,
    ),
  },
  {
    name: 'a tab inside a header name',
    send: latin1(`GET /v1/jobs HTTP/1.1\r\n${HOST}X\tBad: 1\r\n\r\n`),
    expected: refused(
      `The header name "X\\tBad" holds whitespace, which HTTP does not allow in a header name or before its colon: ${NAME_RULE}`,
    ),
  },
  {
    name: 'a control byte',
    send: latin1(`GET /v1/jobs HTTP/1.1\r\n${HOST}X\x01Bad: 1\r\n\r\n`),
    expected: refused(`The header name "X\\u0001Bad" holds the control byte (0x01): ${NAME_RULE}`),
  },
  {
    name: 'a NUL byte',
    send: latin1(`GET /v1/jobs HTTP/1.1\r\n${HOST}X\x00Bad: 1\r\n\r\n`),
    expected: refused(`The header name "X\\u0000Bad" holds a NUL byte (0x00): ${NAME_RULE}`),
  },
  {
    name: 'a DEL byte',
    send: latin1(`GET /v1/jobs HTTP/1.1\r\n${HOST}X\x7fBad: 1\r\n\r\n`),
    expected: refused(`The header name "X\x7fBad" holds a DEL byte (0x7F): ${NAME_RULE}`),
  },
  {
    name: 'a byte above ASCII (0x80)',
    send: latin1(`GET /v1/jobs HTTP/1.1\r\n${HOST}X\x80Bad: 1\r\n\r\n`),
    expected: refused(`The header name "X\u0080Bad" holds the byte 0x80, which is not ASCII: ${NAME_RULE}`),
  },
  {
    name: 'a printable character HTTP does not allow',
    send: latin1(`GET /v1/jobs HTTP/1.1\r\n${HOST}X(Bad): 1\r\n\r\n`),
    expected: refused(`The header name "X(Bad)" holds "(", which HTTP does not allow in a header name: ${NAME_RULE}`),
  },
  {
    name: 'the same character first on the line',
    send: latin1(`GET /v1/jobs HTTP/1.1\r\n${HOST}(X): 1\r\n\r\n`),
    expected: refused(`The header name "(X)" holds "(", which HTTP does not allow in a header name: ${NAME_RULE}`),
  },
  {
    name: 'a line feed inside a header name',
    send: latin1(`GET /v1/jobs HTTP/1.1\r\n${HOST}X\nY: 1\r\n\r\n`),
    expected: refused(`The header name X holds a line feed (0x0A): ${NAME_RULE}`),
  },
  {
    name: 'a carriage return inside a header name',
    send: latin1(`GET /v1/jobs HTTP/1.1\r\n${HOST}X\rY: 1\r\n\r\n`),
    expected: refused(`The header name "X\\rY" holds a carriage return (0x0D): ${NAME_RULE}`),
  },
  {
    name: 'a header line without a colon',
    send: latin1(`GET /v1/jobs HTTP/1.1\r\n${HOST}X-Bad\r\n\r\n`),
    expected: refused(`The header name X-Bad holds a carriage return (0x0D): ${NAME_RULE}`),
  },
];

const headerValues: Case[] = [
  {
    name: 'a control byte in a value: the header is the param',
    send: latin1(`POST /v1/clients HTTP/1.1\r\n${HOST}Idempotency-Key: a\x01b\r\nContent-Length: 0\r\n\r\n`),
    expected: refused(`The value of the header Idempotency-Key holds the control byte (0x01), ${NOT_IN_VALUES}`, {
      param: 'Idempotency-Key',
    }),
  },
  {
    name: 'a NUL byte in a value',
    send: latin1(`GET /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer svc_test_\x00sandbox_public\r\n\r\n`),
    expected: refused(`The value of the header Authorization holds a NUL byte (0x00), ${NOT_IN_VALUES}`, { param: 'Authorization' }),
  },
  {
    name: 'a DEL byte in a value',
    send: latin1(`GET /v1/jobs HTTP/1.1\r\n${HOST}X-A: a\x7fb\r\n\r\n`),
    expected: refused(`The value of the header X-A holds a DEL byte (0x7F), ${NOT_IN_VALUES}`, { param: 'X-A' }),
  },
  {
    name: 'a control byte in the value of a one-letter header',
    send: latin1(`GET /v1/jobs HTTP/1.1\r\n${HOST}X: a\x0bb\r\n\r\n`),
    expected: refused(`The value of the header X holds the control byte (0x0B), ${NOT_IN_VALUES}`, { param: 'X' }),
  },
  {
    name: 'a carriage return not followed by a line feed',
    send: latin1(`GET /v1/jobs HTTP/1.1\r\n${HOST}X-A: a\r\r\n\r\n`),
    expected: refused(`The value of the header X-A holds a carriage return (0x0D), ${NOT_IN_VALUES}`, { param: 'X-A' }),
  },
  {
    name: 'a bare line feed (header injection)',
    send: latin1(`POST /v1/clients HTTP/1.1\r\n${HOST}Idempotency-Key: a\nInjected: 1\r\nContent-Length: 0\r\n\r\n`),
    expected: refused(`The value of the header Idempotency-Key ${BARE_LF}`, { param: 'Idempotency-Key' }),
  },
  {
    name: 'a header name of 60 characters is shown as it is',
    send: latin1(`GET /v1/jobs HTTP/1.1\r\n${HOST}${'X'.repeat(60)}: a\x01\r\n\r\n`),
    expected: refused(`The value of the header ${'X'.repeat(60)} holds the control byte (0x01), ${NOT_IN_VALUES}`, {
      param: 'X'.repeat(60),
    }),
  },
  {
    name: 'a header name of 61 characters is quoted and cut',
    send: latin1(`GET /v1/jobs HTTP/1.1\r\n${HOST}${'X'.repeat(61)}: a\x01\r\n\r\n`),
    expected: refused(`The value of the header "${'X'.repeat(60)}…" holds the control byte (0x01), ${NOT_IN_VALUES}`, {
      param: 'X'.repeat(61),
    }),
  },
  {
    name: 'obsolete line folding (a space)',
    send: latin1(`GET /v1/jobs HTTP/1.1\r\n${HOST}X-A: a\r\n b\r\n\r\n`),
    expected: refused(`The header X-A ${FOLDED}`, { param: 'X-A' }),
  },
  {
    name: 'obsolete line folding (a tab)',
    send: latin1(`GET /v1/jobs HTTP/1.1\r\n${HOST}X-A: a\r\n\tb\r\n\r\n`),
    expected: refused(`The header X-A ${FOLDED}`, { param: 'X-A' }),
  },
  {
    name: 'obsolete line folding of the first header',
    send: latin1(`GET /v1/jobs HTTP/1.1\r\n${HOST}  X: 1\r\n\r\n`),
    expected: refused(`The header Host ${FOLDED}`, { param: 'Host' }),
  },
];

const framing: Case[] = [
  {
    name: 'Content-Length with Transfer-Encoding',
    send: latin1(`POST /v1/clients HTTP/1.1\r\n${HOST}Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`),
    expected: refused('Content-Length and Transfer-Encoding cannot be sent together: send one of them.', { param: 'Transfer-Encoding' }),
  },
  {
    name: 'a transfer coding other than chunked',
    send: latin1(`POST /v1/clients HTTP/1.1\r\n${HOST}Transfer-Encoding: gzip\r\n\r\n`),
    expected: refused('Transfer-Encoding must be chunked, the only transfer coding the sandbox reads.', { param: 'Transfer-Encoding' }),
  },
  {
    name: 'chunked, then another coding',
    send: latin1(`POST /v1/clients HTTP/1.1\r\n${HOST}Transfer-Encoding: chunked, gzip\r\n\r\n`),
    expected: refused('Transfer-Encoding must be chunked, the only transfer coding the sandbox reads.', { param: 'Transfer-Encoding' }),
  },
  {
    name: 'a Content-Length that is not digits',
    send: latin1(`POST /v1/clients HTTP/1.1\r\n${HOST}Content-Length: 1x\r\n\r\n`),
    expected: refused('Content-Length must be a number of bytes, digits only; received "1x".', { param: 'Content-Length' }),
  },
  {
    name: 'the same without a space after the colon',
    send: latin1(`POST /v1/clients HTTP/1.1\r\n${HOST}Content-Length:1x\r\n\r\n`),
    expected: refused('Content-Length must be a number of bytes, digits only; received "1x".', { param: 'Content-Length' }),
  },
  {
    name: 'the same after two spaces',
    send: latin1(`POST /v1/clients HTTP/1.1\r\n${HOST}Content-Length:  1x\r\n\r\n`),
    expected: refused('Content-Length must be a number of bytes, digits only; received "1x".', { param: 'Content-Length' }),
  },
  {
    name: 'a negative Content-Length',
    send: latin1(`POST /v1/clients HTTP/1.1\r\n${HOST}Content-Length: -1\r\n\r\n`),
    expected: refused('Content-Length must be a number of bytes, digits only; received "-1".', { param: 'Content-Length' }),
  },
  {
    name: 'two numbers in one Content-Length',
    send: latin1(`POST /v1/clients HTTP/1.1\r\n${HOST}Content-Length: 1 2\r\n\r\n`),
    expected: refused('Content-Length must be a number of bytes, digits only; received "1 2".', { param: 'Content-Length' }),
  },
  {
    name: 'Content-Length twice',
    send: latin1(`POST /v1/clients HTTP/1.1\r\n${HOST}Content-Length: 1\r\nContent-Length: 2\r\n\r\n`),
    expected: refused('Content-Length is sent more than once: send it once.', { param: 'Content-Length' }),
  },
  {
    name: 'a chunk size that is not hexadecimal',
    send: latin1(`POST /v1/clients HTTP/1.1\r\n${HOST}${AUTH}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`),
    expected: refused(BAD_CHUNKS),
  },
  {
    name: 'the same from a browser (Origin): CORS',
    send: latin1(
      `POST /v1/clients HTTP/1.1\r\n${HOST}${AUTH}${ORIGIN}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`,
    ),
    expected: refused(BAD_CHUNKS, { cors: true }),
  },
  {
    name: 'chunk extensions over 16 KiB',
    send: latin1(`POST /v1/clients HTTP/1.1\r\n${HOST}${AUTH}Transfer-Encoding: chunked\r\n\r\n1;${'a'.repeat(20_000)}\r\nx\r\n0\r\n\r\n`),
    expected: refused(BAD_CHUNKS),
  },
  {
    name: 'a space before the first header',
    send: latin1(`GET /v1/jobs HTTP/1.1\r\n ${HOST}\r\n`),
    expected: refused('The request is not valid HTTP/1.1 (Unexpected space after start line).'),
  },
  {
    name: 'the HTTP/2 connection preface (h2c with prior knowledge)',
    send: latin1('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'),
    expected: refused('The request is not valid HTTP/1.1 (Pause on PRI/Upgrade).', { cors: true }),
  },
  {
    name: 'a carriage return after the version, then no line feed',
    send: latin1('GET /v1/jobs HTTP/1.1\rX\n\r\n'),
    expected: refused('The request is not valid HTTP/1.1 (Expected CRLF after version).', { cors: true }),
  },
];

describe.each([
  ['the request line', requestLine],
  ['the request target', target],
  ['stray line breaks before the request line (RFC 9112, 2.2)', strayLineBreaks],
  ['a HEAD, and Origin', headOrigin],
  ['header names', headerNames],
  ['header values', headerValues],
  ['framing', framing],
])('refused on the socket: %s', (_group, cases) => {
  it.each(cases)('$name', async ({ send, expected }) => {
    expectRefusal(await refusalTo(send), expected);
  });
});

describe('refused on the socket: cut short, too large, too slow', () => {
  it('a request line that arrives in two packets is still read from the second', async () => {
    expectRefusal(
      await refusalTo([latin1('GET /v1/jobs/a'), latin1(`b HTTP/1.2\r\n${HOST}\r\n`)]),
      refused('The request line must end with HTTP/1.1; received "HTTP/1.2".'),
    );
  });

  it('a fault in a packet that starts inside the target: the line cannot be read, only described', async () => {
    // Node hands over only the packet that holds the fault: here no method and no space before it.
    expectRefusal(await refusalTo([latin1('GET /v1/jobs/a'), latin1('b\x01c')]), refused(BAD_LINE, { cors: true }));
  });

  it('a body cut short by the client closing its side', async () => {
    const head = `POST /v1/clients HTTP/1.1\r\n${HOST}${AUTH}Content-Type: application/json\r\nContent-Length: 10\r\n\r\n`;
    expectRefusal(await halfClosed(server.port, latin1(`${head}{"a`)), refused('The request is not valid HTTP/1.1.'));
  });

  it('headers cut short by the client closing its side: CORS, as nobody can tell', async () => {
    expectRefusal(
      await halfClosed(server.port, latin1(`GET /v1/jobs HTTP/1.1\r\n${HOST}`)),
      refused('The request is not valid HTTP/1.1.', { cors: true }),
    );
  });

  const large = `X-Big: ${'a'.repeat(20_000)}\r\n`;
  const tooLarge = (more: Partial<ExpectedRefusal> = {}): ExpectedRefusal => ({
    status: 431,
    reason: 'Request Header Fields Too Large',
    message: 'The request line and headers are larger than 16 KiB: send long values in the body of a POST, or shorten the query.',
    cors: false,
    ...more,
  });

  it('headers over 16 KiB are a 431 (whole in one packet, without Origin: no CORS)', async () => {
    expectRefusal(await refusalTo(latin1(`GET /v1/jobs HTTP/1.1\r\n${HOST}${large}\r\n`)), tooLarge());
  });

  it('the same with Origin: CORS; and a HEAD gets no body', async () => {
    expectRefusal(await refusalTo(latin1(`GET /v1/jobs HTTP/1.1\r\n${HOST}${ORIGIN}${large}\r\n`)), tooLarge({ cors: true }));
    expectRefusal(await refusalTo(latin1(`HEAD /v1/jobs HTTP/1.1\r\n${HOST}${large}\r\n`)), tooLarge({ body: false }));
  });

  it('a URL over 16 KiB whose headers never end: CORS, as nobody can tell', async () => {
    expectRefusal(await refusalTo(latin1(`GET /v1/jobs?q=${'a'.repeat(20_000)}`)), tooLarge({ cors: true }));
  });

  it("the 431 names the server's own limit in KiB", async () => {
    const small = await startLoopback({ ...FAST_LIMITS, maxHeaderBytes: 4 * 1024 });
    try {
      expectRefusal(
        await rawRequest(small.port, [latin1(`GET /v1/jobs HTTP/1.1\r\n${HOST}X-Big: ${'a'.repeat(5000)}\r\n\r\n`)]),
        tooLarge({
          message: 'The request line and headers are larger than 4 KiB: send long values in the body of a POST, or shorten the query.',
        }),
      );
    } finally {
      await small.close();
    }
  });

  it('headers that do not arrive in time are a 408 naming the headers time-out (0.3 s here)', async () => {
    const answer = await rawRequest(server.port, [latin1(`GET /v1/jobs HTTP/1.1\r\n${HOST}`)]);
    expectRefusal(answer, {
      status: 408,
      reason: 'Request Timeout',
      message: 'The request headers did not arrive in time: they must arrive within 0.3 s.',
      cors: true,
    });
  });

  it('a body that does not arrive in time is a 408 naming the request time-out (0.6 s here), CORS as the request had it', async () => {
    const head = `POST /v1/clients HTTP/1.1\r\n${HOST}${AUTH}Content-Type: application/json\r\nContent-Length: 10\r\n`;
    const late = (origin: string) => rawRequest(server.port, [latin1(`${head}${origin}\r\n{"a`)]);
    const expected: ExpectedRefusal = {
      status: 408,
      reason: 'Request Timeout',
      message: 'The request body did not arrive in time: a whole request must arrive within 0.6 s.',
      cors: false,
    };
    expectRefusal(await late(''), expected);
    expectRefusal(await late(ORIGIN), { ...expected, cors: true });
  });
});

// What Node 20, 22 and 24 never hand the clientError handler, the handler's rules all the same:
// refusalOf itself, with the error as llhttp words it.
describe('refusalOf, for what a socket on this Node cannot show', () => {
  const LIMITS = { maxHeaderBytes: 16 * 1024, headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 };
  const GOOD = `GET /health HTTP/1.1\r\n${HOST}\r\n`;
  const at = (packet: string, text: string) => packet.indexOf(text);

  // Pipelining: Node drops the connection when a request after a pending one is refused, so the
  // answer to a fault in a later request of a packet never goes out.
  it("a fault in the third request of a packet: that request's method (HEAD) and Origin", () => {
    const packet = `${GOOD}${GOOD}HEAD /v1/jobs/a\x01b HTTP/1.1\r\n${ORIGIN}\r\n`;
    expect(
      refusalOf(
        { code: 'HPE_INVALID_URL', reason: 'Invalid char in url path', rawPacket: latin1(packet), bytesParsed: at(packet, '\x01') },
        LIMITS,
      ),
    ).toEqual({
      status: 400,
      reason: 'Bad Request',
      message: 'The request line holds the control byte (0x01): percent-encode it (%01).',
      method: 'HEAD',
      origin: true,
    });
  });

  it('a fault at the first byte of the second request', () => {
    const packet = `${GOOD}get /v1/jobs HTTP/1.1\r\n\r\n`;
    expect(
      refusalOf(
        { code: 'HPE_INVALID_METHOD', reason: 'Invalid method encountered', rawPacket: latin1(packet), bytesParsed: at(packet, 'get') },
        LIMITS,
      ),
    ).toEqual({
      status: 400,
      reason: 'Bad Request',
      message: 'The method "get" must be upper-case: GET.',
      method: 'get',
      origin: false,
    });
  });

  // Node's llhttp ends the request line at a bare LF (HTTP/0.9) and refuses what follows as a
  // header name; a parser that reports the LF as the target's is answered about the target.
  it("a line feed inside the target, reported as the URL's fault on the line after it", () => {
    const packet = `GET /v1/jobs/a\nb HTTP/1.1\r\n${HOST}\r\n`;
    expect(
      refusalOf(
        { code: 'HPE_INVALID_URL', reason: 'Invalid char in url path', rawPacket: latin1(packet), bytesParsed: at(packet, 'b HTTP') },
        LIMITS,
      ),
    ).toEqual({
      status: 400,
      reason: 'Bad Request',
      message: 'The request line holds a line feed (0x0A): percent-encode it (%0A).',
      method: 'GET',
      origin: false,
    });
  });

  it('a request-line error placed past the request line is not worded from the request line', () => {
    const packet = `GET /v1/jobs HTTP/1.1\r\n${HOST}\r\n`;
    expect(
      refusalOf(
        { code: 'HPE_INVALID_VERSION', reason: 'Invalid HTTP version', rawPacket: latin1(packet), bytesParsed: at(packet, 'Host') + 2 },
        LIMITS,
      ),
    ).toEqual({
      status: 400,
      reason: 'Bad Request',
      message: 'The request is not valid HTTP/1.1 (Invalid HTTP version).',
      method: 'GET',
      origin: false,
    });
  });

  // llhttp's words differ between versions: the position alone tells a folded line or a bad name.
  it.each([
    [' ', 'a space'],
    ['\t', 'a tab'],
  ])('a folded line (%j) is told by its position, whatever the words', (whitespace) => {
    const packet = `GET /v1/jobs HTTP/1.1\r\n${HOST}X-A: a\r\n${whitespace}b\r\n\r\n`;
    const bytesParsed = at(packet, `${whitespace}b`);
    expect(
      refusalOf({ code: 'HPE_INVALID_HEADER_TOKEN', reason: 'Invalid header token', rawPacket: latin1(packet), bytesParsed }, LIMITS),
    ).toEqual({
      status: 400,
      reason: 'Bad Request',
      message: `The header X-A ${FOLDED}`,
      param: 'X-A',
      method: 'GET',
      origin: false,
    });
  });

  it('a fault inside a header name is told by its position, whatever the words', () => {
    const packet = `GET /v1/jobs HTTP/1.1\r\n${HOST}X(A): 1\r\n\r\n`;
    expect(
      refusalOf(
        { code: 'HPE_INVALID_HEADER_TOKEN', reason: 'Invalid character', rawPacket: latin1(packet), bytesParsed: at(packet, '(') },
        LIMITS,
      ),
    ).toEqual({
      status: 400,
      reason: 'Bad Request',
      message: `The header name "X(A)" holds "(", which HTTP does not allow in a header name: ${NAME_RULE}`,
      method: 'GET',
      origin: false,
    });
  });

  it('a bare line feed in a value is named as such, whatever the words', () => {
    const packet = `GET /v1/jobs HTTP/1.1\r\n${HOST}X-A: a\nb: c\r\n\r\n`;
    expect(
      refusalOf(
        {
          code: 'HPE_INVALID_HEADER_TOKEN',
          reason: 'Invalid header value char',
          rawPacket: latin1(packet),
          bytesParsed: at(packet, 'a\nb') + 1,
        },
        LIMITS,
      ),
    ).toMatchObject({
      message: `The value of the header X-A ${BARE_LF}`,
      param: 'X-A',
    });
  });

  it('an error without words shows its code, or "unreadable" without either', () => {
    const packet = latin1(`GET /v1/jobs HTTP/1.1\r\n${HOST}\r\n`);
    expect(refusalOf({ code: 'HPE_USER', rawPacket: packet, bytesParsed: 4 }, LIMITS).message).toBe(
      'The request is not valid HTTP/1.1 (HPE_USER).',
    );
    expect(refusalOf({ rawPacket: packet, bytesParsed: 4 }, LIMITS).message).toBe('The request is not valid HTTP/1.1 (unreadable).');
  });
});
