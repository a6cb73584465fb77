// `reset_after_write`: the write ran, then the connection drops with no answer. Each platform does
// what it can, and only that:
// - Workers cannot drop a client's connection: the app answers with the status and headers of the
//   write's answer and a body that can never be read whole, so the client's read fails;
// - the Node server resets the socket before writing any byte of it (src/node-server.ts);
// - in-process, createSandbox().fetch rejects with a TypeError, as fetch does on a network failure.

const lost = new WeakSet<Response>();

/** Workers' stream of a declared length (absent on Node): the runtime sends it as Content-Length. */
type FixedLengthStreamClass = new (length: number) => { readable: ReadableStream<Uint8Array>; writable: WritableStream<Uint8Array> };

const RESET = 'The connection was reset (Sandbox-Simulate: reset_after_write).';

/** The answer of a write whose connection drops: its head, then a body that fails. */
export function lostAnswer(answer: Response): Response | Promise<Response> {
  // Looked up as a write's answer is lost, which is rare: a test on Node can stand in for workerd's.
  const FixedLength = (globalThis as { FixedLengthStream?: FixedLengthStreamClass }).FixedLengthStream;
  if (FixedLength === undefined) return erroringBody(answer);
  return answer.arrayBuffer().then((bytes) => cutShort(answer, new FixedLength(Math.max(bytes.byteLength, 1))));
}

/**
 * workerd ends a chunked body whose stream errors as if it were complete (a clean 201 with an empty
 * body: curl exits 0, fetch reads ""). A body of a declared length that stops short cannot be
 * ended so: workerd closes the connection, curl exits 18 and fetch's read rejects, as after a
 * reset. The length declared is the answer's own. `Content-Encoding: identity` keeps the front
 * line from compressing the JSON (Cloudflare's edge, and Miniflare's entry worker, which copies its
 * rule), which would turn it back into a chunked body that ends cleanly.
 */
function cutShort(answer: Response, { readable, writable }: InstanceType<FixedLengthStreamClass>): Response {
  // Nothing is written: the head goes out, then the connection closes. workerd logs the reason.
  writable.abort(new TypeError(RESET)).catch(() => {});
  const headers = new Headers(answer.headers);
  headers.set('Content-Encoding', 'identity');
  const response = new Response(readable, { status: answer.status, headers });
  lost.add(response);
  return response;
}

/** Where no runtime sends the answer (app.request, a test's fetch): a body whose read fails. */
function erroringBody(answer: Response): Response {
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.error(new TypeError(RESET));
    },
  });
  const response = new Response(body, { status: answer.status, headers: answer.headers });
  lost.add(response);
  return response;
}

/** Whether the platform must drop the connection rather than send this answer. */
export function isLostAnswer(response: Response): boolean {
  return lost.has(response);
}

/** What fetch rejects with when the peer resets the connection (undici's words and cause). */
export function connectionReset(): TypeError {
  const cause = Object.assign(new Error('read ECONNRESET (Sandbox-Simulate: reset_after_write)'), { code: 'ECONNRESET' });
  return new TypeError('fetch failed', { cause });
}
