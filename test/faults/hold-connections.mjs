// Holds connections open on the sandbox, each with one request whose answer is held
// (`Sandbox-Simulate: delay=60000`), for the held-answer bound in socket.test.ts. A process of
// its own, started with a raised open-file limit: a thousand sockets and the test runner's own
// files do not fit in the soft limit of 1,024 many Linux machines start processes with.
//
//   node hold-connections.mjs <port> <count> <key>
//
// Prints `held <count>` once every request is written. Then, for each stdin line `drop <n>`, it
// destroys n of its sockets (clients that give up) and prints `dropped <n>`. It exits when stdin
// ends, with its sockets.
import { get } from 'node:http';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';

const [port, count, key] = process.argv.slice(2);
const request = `GET /v1/jobs?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nSandbox-Simulate: delay=60000\r\n\r\n`;
const sockets = [];

/**
 * Resolves once the server answers GET /health on a connection of its own. Connections wait in the
 * listen backlog (511 on Node) until the server accepts them, in the order they came: once this
 * one is answered, every connection made before it has been accepted.
 */
function accepted() {
  return new Promise((resolve, reject) => {
    const request = get({ host: '127.0.0.1', port: Number(port), path: '/health', agent: false }, (response) => {
      response.resume();
      response.once('end', resolve);
    });
    request.once('error', reject);
  });
}

// A hundred at a time, each batch accepted before the next: a client's connect completes as the
// kernel queues it, not as the server accepts it, and when a busy server let the backlog
// overflow, the kernel dropped the connections past it and let them in only seconds later.
for (let held = 0; held < Number(count); held += 100) {
  const batch = Array.from(
    { length: Math.min(100, Number(count) - held) },
    () =>
      new Promise((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => resolve(socket));
        socket.once('error', reject);
      }),
  );
  for (const socket of await Promise.all(batch)) {
    socket.on('error', () => {});
    socket.write(request);
    sockets.push(socket);
  }
  await accepted();
}
console.log(`held ${sockets.length}`);

for await (const line of createInterface({ input: process.stdin })) {
  const drop = Number(line.match(/^drop (\d+)$/)?.[1] ?? 0);
  for (const socket of sockets.splice(0, drop)) socket.destroy();
  console.log(`dropped ${drop}`);
}
for (const socket of sockets) socket.destroy();
