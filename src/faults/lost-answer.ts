// `reset_after_write`: the write ran, then the connection drops with no answer. Each platform does
// what it can, and only that:
// - the app answers with the status and headers of the write's answer and a body stream that
//   errors: what Workers send (they cannot drop a client's connection), so reading the body fails;
// - the Node server resets the socket before writing any byte of it (src/node-server.ts);
// - in-process, createSandbox().fetch rejects with a TypeError, as fetch does on a network failure.

const lost = new WeakSet<Response>();

/** The answer of a write whose connection drops: its head, then a body that fails. */
export function lostAnswer(answer: Response): Response {
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.error(new TypeError('The connection was reset (Sandbox-Simulate: reset_after_write).'));
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
