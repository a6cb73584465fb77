// One HTTP request on loopback, outside any connection pool: the benchmark's setup and checks
// must not leave keep-alive sockets behind, and cold-start polling needs a fresh connection each try.
import { request } from 'node:http';
import { HOST } from './processes.mjs';

/** Sends one request; resolves to status, content type and the body's exact bytes. */
export function send(port, { method = 'GET', path, headers = {}, body }, timeoutMs = 5000) {
  return new Promise((resolve, reject) => {
    const req = request({ host: HOST, port, method, path, headers, agent: false, timeout: timeoutMs }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode,
          contentType: res.headers['content-type'] ?? null,
          headers: res.headers,
          body: Buffer.concat(chunks),
        }),
      );
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer in ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** A `send` bound to one server, in the shape scenarios.mjs expects. */
export function sender(port) {
  return (spec) => send(port, spec);
}
