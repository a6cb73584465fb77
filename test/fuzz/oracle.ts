// What every answer of the sandbox must be, whatever was sent (issue "Impossible to crash"): a
// success that validates against its endpoint's schema, or an error in the reference's shape
// with a known code, the status and type of that code, a non-empty param when there is one and
// the Request-Id of the response; never a 5xx unless one was simulated; only known headers, with
// values that cannot carry what the client sent.
import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../../src/errors.js';
import type { Endpoint } from '../../src/http/endpoint.js';
import { ENDPOINTS } from '../../src/resources/index.js';

const REQUEST_ID = /^req_[0-9A-Za-z]{24}$/;
const METHODS = /^(GET|POST|PATCH|DELETE)(, (GET|POST|PATCH|DELETE))*$/;

/** Every header the sandbox may answer with, and what its value may be. */
const HEADER_VALUES: Record<string, RegExp> = {
  'content-type': /^application\/json$/,
  'ratelimit-policy': /^\d+;w=1$/,
  'request-id': REQUEST_ID,
  'retry-after': /^\d+$/,
  allow: METHODS,
  'idempotent-replayed': /^true$/,
  'access-control-allow-origin': /^\*$/,
  'access-control-expose-headers': /^[A-Za-z-]+(, [A-Za-z-]+)*$/,
  'access-control-allow-methods': METHODS,
  'access-control-allow-headers': /^[A-Za-z-]+(, [A-Za-z-]+)*$/,
  'access-control-max-age': /^\d+$/,
  // The items of Sandbox-Simulate in effect (docs/testing-retries.md).
  'sandbox-fault':
    /^(rate_limited|api_error|api_error_after_write|reset_after_write|duplicate_event|delay=\d+)(, (rate_limited|api_error|api_error_after_write|reset_after_write|duplicate_event|delay=\d+))?$/,
};

const ErrorBody = z.strictObject({
  error: z.strictObject({
    type: z.string(),
    code: z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]),
    message: z.string().min(1),
    param: z.string().min(1, 'param must never be empty').optional(),
    doc_url: z.string(),
    request_id: z.string().regex(REQUEST_ID),
  }),
});

const ROUTES = ENDPOINTS.map((endpoint) => ({
  endpoint,
  regex: new RegExp(`^${endpoint.path.replace(/\{\w+\}/g, '[^/]+')}$`),
}));

/** The endpoint a method and path reach, if any (HEAD is answered by GET). */
export function routeOf(method: string, pathname: string): Endpoint | undefined {
  let path = pathname;
  try {
    path = decodeURI(pathname);
  } catch {
    // Not decodable: matched as sent.
  }
  const wanted = method === 'HEAD' ? 'GET' : method;
  return ROUTES.find((route) => route.endpoint.method === wanted && route.regex.test(path))?.endpoint;
}

export interface SentRequest {
  method: string;
  url: string;
  simulate?: string | undefined;
}

/** Everything wrong with one answer; empty when it is right. */
/**
 * Whether the request asked for a 500 (docs/testing-retries.md): Sandbox-Simulate holding the
 * item api_error, or api_error_after_write (a 500 on a write that ran, or on a GET). Any other
 * value answers as the request would, or 400.
 */
export function asked500(simulate: string | undefined): boolean {
  if (simulate === undefined) return false;
  const items = simulate.split(',').map((item) => item.trim());
  return items.includes('api_error') || items.includes('api_error_after_write');
}

export function problemsOf(request: SentRequest, response: Response, text: string): string[] {
  const pathname = new URL(request.url, 'http://localhost').pathname;
  // The reference page, its assets and the OpenAPI document are not API answers: their headers
  // (CSP, caching) and bodies are test/docs.test.ts's. Here they only must not fail or crash.
  if (isDocumentation(pathname) && response.status < 400) {
    const fine = response.status < 300 ? response.headers.has('content-type') : response.headers.has('location');
    return fine ? [] : [`${request.method} ${pathname} answered ${response.status} without its header`];
  }
  const problems: string[] = [];
  const headers = [...response.headers];
  for (const [name, value] of headers) {
    const rule = HEADER_VALUES[name];
    if (rule === undefined) problems.push(`unexpected header ${name}: ${value}`);
    else if (!rule.test(value)) problems.push(`header ${name} has an unexpected value ${JSON.stringify(value)}`);
  }
  const requestId = response.headers.get('request-id');
  if (requestId === null) problems.push('no Request-Id header');
  const status = response.status;

  if (status >= 200 && status < 300) {
    if (request.method === 'OPTIONS') {
      if (status !== 204 || text !== '') problems.push(`preflight answered ${status} with a body`);
      return problems;
    }
    if (pathname === '/health') return text === '{"status":"ok"}' || request.method === 'HEAD' ? problems : [...problems, 'bad /health'];
    const endpoint = routeOf(request.method, pathname);
    if (endpoint === undefined) return [...problems, `a ${status} for ${request.method} ${pathname}, which is no route`];
    if (status !== endpoint.success.status) problems.push(`${endpoint.operationId} answered ${status}, not ${endpoint.success.status}`);
    if (request.method === 'HEAD') return problems;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return [...problems, `success body is not JSON: ${text.slice(0, 200)}`];
    }
    const parsed = endpoint.success.schema().safeParse(json);
    if (!parsed.success) problems.push(`${endpoint.operationId} answered a body outside its schema: ${z.prettifyError(parsed.error)}`);
    return problems;
  }

  if (request.method === 'HEAD') {
    // No body to read: the status alone must be an error status of the table.
    if (status >= 500 && !(status === 500 && asked500(request.simulate))) problems.push(`HEAD answered ${status}`);
    return problems;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return [...problems, `error body is not JSON (status ${status}): ${text.slice(0, 200)}`];
  }
  const parsed = ErrorBody.safeParse(json);
  if (!parsed.success)
    return [...problems, `error body outside the reference's shape: ${z.prettifyError(parsed.error)} in ${text.slice(0, 300)}`];
  const error = parsed.data.error;
  const expected = ERROR_CODES[error.code];
  if (error.type !== expected.type) problems.push(`code ${error.code} has type ${error.type}, not ${expected.type}`);
  // 413: a body over 1 MiB; 408 and 431: a request Node's parser refused (too slow, too large).
  const statusFits = status === expected.status || (error.code === 'parameter_invalid' && [408, 413, 431].includes(status));
  if (!statusFits) problems.push(`code ${error.code} answered with status ${status}`);
  if (!error.doc_url.endsWith(`/docs/errors#${error.code}`)) problems.push(`doc_url ${error.doc_url} does not name ${error.code}`);
  if (error.request_id !== requestId) problems.push(`request_id ${error.request_id} is not the Request-Id header ${requestId}`);
  if (status >= 500 && !(error.code === 'api_error' && asked500(request.simulate))) {
    problems.push(`a ${status} that was not simulated: ${error.message}`);
  }
  // Issue #8: whatever was sent, the message is the sandbox's own words, never the library's.
  // What was sent is shown quoted and may hold anything: only the words around it are judged.
  if (LIBRARY_WORDING.test(error.message.replace(/"(?:[^"\\]|\\.)*"/g, '""')))
    problems.push(`a message in the validation library's words: ${error.message}`);
  if (status === 405 && response.headers.get('allow') === null) problems.push('405 without Allow');
  if (status === 429 && response.headers.get('retry-after') === null) problems.push('429 without Retry-After');
  return problems;
}

const LIBRARY_WORDING =
  /Invalid input|Invalid option|Invalid string|expected one of|expected \w+, received|must match pattern|Too (small|big)|\/\^/;

function isDocumentation(pathname: string): boolean {
  return pathname === '/openapi.json' || pathname === '/docs' || pathname.startsWith('/docs/');
}
