// A webhook receiver on a loopback port for the tests of events from writes: it records every
// delivery and answers with the statuses it is given, in turn (then 200).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  body: string;
  signature: string | undefined;
  userAgent: string | undefined;
  contentType: string | undefined;
}

export interface Receiver {
  url: string;
  deliveries: Delivery[];
  /** Statuses to answer, one per delivery attempt, before the default 200. */
  answers: number[];
  /** Resolves once `count` deliveries arrived, or rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<Delivery[]>;
  close(): Promise<void>;
}

/** `onRequest` runs as each delivery has arrived, before its answer. */
export async function startReceiver(onRequest: () => void = () => {}): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  const answers: number[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      deliveries.push({
        body: Buffer.concat(chunks).toString('utf8'),
        signature: request.headers['service-signature'] as string | undefined,
        userAgent: request.headers['user-agent'],
        contentType: request.headers['content-type'],
      });
      onRequest();
      response.writeHead(answers.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    deliveries,
    answers,
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (deliveries.length < count) {
        if (Date.now() > deadline) throw new Error(`${deliveries.length} of ${count} deliveries arrived within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return deliveries;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
