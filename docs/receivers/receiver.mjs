// A webhook receiver for the Waste Operations API, in Node with nothing but its built-in modules.
// It verifies Service-Signature as docs/webhook-signatures.md specifies, answers 2xx at once, and
// dedupes on the event id (deliveries are retried, so an event can arrive twice).
//
//   WEBHOOK_SECRET=whsec_… PORT=4242 node receiver.mjs
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';

const TOLERANCE_SECONDS = 300;
const MAX_BODY_BYTES = 1024 * 1024;

/** Why a delivery does not verify, or null when it does. `body` is the raw bytes, as received. */
export function signatureProblem(body, header, secret, now = Math.floor(Date.now() / 1000)) {
  if (!header) return 'no Service-Signature header';
  let timestamp;
  const signatures = [];
  for (const part of header.split(',')) {
    const [name, value = ''] = part.trim().split('=', 2);
    if (name === 't' && /^[0-9]{1,15}$/.test(value)) timestamp = value;
    else if (name === 'v1' && /^[0-9a-f]{64}$/.test(value)) signatures.push(value);
    // Any other element (a future v2) is ignored.
  }
  if (timestamp === undefined) return 'no t=<unix seconds> in Service-Signature';
  if (signatures.length === 0) return 'no v1=<64 lowercase hex digits> in Service-Signature';
  const age = now - Number(timestamp);
  if (age < 0) return 't is in the future';
  if (age >= TOLERANCE_SECONDS) return `t is ${age} seconds old`;
  // The key is the whole secret, whsec_ included, as UTF-8; the text is "<t>." then the body's bytes.
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(`${timestamp}.`, 'utf8')
    .update(body)
    .digest('hex');
  let matched = false;
  for (const signature of signatures) {
    // Constant time: how long the comparison takes says nothing of where the strings differ.
    matched = timingSafeEqual(Buffer.from(signature), Buffer.from(expected)) || matched;
  }
  return matched ? null : 'no v1 matches the body and secret';
}

/** Event ids already handled. In production: a table with a unique key, kept longer than the retries last. */
const seen = new Set();

function handle(event) {
  // The work goes here, after the answer: the sender waits for the 2xx, not for the work.
  console.log(`verified ${event.type} ${event.id}`);
}

export function createReceiver(secret) {
  return createServer((request, response) => {
    const chunks = [];
    let size = 0;
    request.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) request.destroy();
      else chunks.push(chunk);
    });
    request.on('end', () => {
      const body = Buffer.concat(chunks); // the raw bytes: a re-serialized JSON would not verify
      const problem = signatureProblem(body, request.headers['service-signature'], secret);
      if (problem !== null) {
        console.log(`refused: ${problem}`);
        response.writeHead(400, { 'Content-Type': 'text/plain' }).end(`${problem}\n`);
        return;
      }
      let event;
      try {
        event = JSON.parse(body.toString('utf8'));
      } catch {
        response.writeHead(400, { 'Content-Type': 'text/plain' }).end('not JSON\n');
        return;
      }
      const duplicate = seen.has(event.id);
      seen.add(event.id);
      response.writeHead(200, { 'Content-Type': 'text/plain' }).end(duplicate ? 'duplicate\n' : 'ok\n');
      if (duplicate) console.log(`duplicate ${event.type} ${event.id}`);
      else setImmediate(() => handle(event));
    });
  });
}

// Run as a program (not imported): listen.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret?.startsWith('whsec_')) {
    console.error("Set WEBHOOK_SECRET to your endpoint's whsec_ signing secret.");
    process.exit(1);
  }
  const host = process.env.HOST ?? '127.0.0.1';
  const server = createReceiver(secret).listen(Number(process.env.PORT ?? 4242), host, () => {
    console.log(`receiver listening on http://${host}:${server.address().port}/`);
  });
}
