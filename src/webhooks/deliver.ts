// One signed webhook delivery with retries, as `waste-operations-sandbox trigger` makes it: a POST
// of the event's exact bytes with Content-Type: application/json and Service-Signature (signed
// again at every attempt, with that attempt's time). A non-2xx answer, a refused connection or no
// answer within the time-out is retried after a growing gap (the reference: "retried with growing
// gaps between attempts"; its schedule is not shown, so the sandbox doubles a gap of 1 s).
import { SIGNATURE_HEADER, signPayload } from './signature.js';

export interface DeliveryOptions {
  url: string;
  secret: string;
  /** Per attempt, for the answer's status and body. */
  timeoutMs: number;
  attempts: number;
  /** The gap before the second attempt; each later gap doubles. */
  backoffMs: number;
  userAgent: string;
  /** Told about each attempt as it ends, so progress is printed as it happens. */
  onAttempt?: (attempt: DeliveryAttempt) => void;
}

export interface DeliveryAttempt {
  attempt: number;
  /** The HTTP status, or undefined when there was no answer. */
  status?: number;
  /** Why there was no answer: refused, timed out, … */
  error?: string;
  ms: number;
  delivered: boolean;
}

export interface DeliveryResult {
  delivered: boolean;
  attempts: DeliveryAttempt[];
}

function failureOf(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `no answer within ${timeoutMs / 1000} s`;
  }
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  if (cause?.code === 'ECONNREFUSED') return 'connection refused';
  if (cause?.code === 'ENOTFOUND') return 'host not found';
  if (cause?.code === 'ECONNRESET' || cause?.code === 'UND_ERR_SOCKET') return 'connection closed without an answer';
  return cause?.message ?? (error instanceof Error ? error.message : String(error));
}

async function attemptOnce(body: string, options: DeliveryOptions, attempt: number): Promise<DeliveryAttempt> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  try {
    const signal = AbortSignal.timeout(options.timeoutMs);
    const response = await fetch(options.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        [SIGNATURE_HEADER]: signPayload(body, options.secret),
        'User-Agent': options.userAgent,
      },
      body,
      // A redirect is not a delivery: the receiver's URL is the one registered.
      redirect: 'manual',
      signal,
    });
    // Read the answer (within the same time-out) so the connection can be reused.
    await response.arrayBuffer();
    const delivered = response.ok;
    return { attempt, status: response.status, ms: ms(), delivered };
  } catch (error) {
    return { attempt, error: failureOf(error, options.timeoutMs), ms: ms(), delivered: false };
  }
}

export async function deliver(body: string, options: DeliveryOptions): Promise<DeliveryResult> {
  const attempts: DeliveryAttempt[] = [];
  for (let attempt = 1; attempt <= options.attempts; attempt++) {
    if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, options.backoffMs * 2 ** (attempt - 2)));
    const result = await attemptOnce(body, options, attempt);
    attempts.push(result);
    options.onAttempt?.(result);
    if (result.delivered) return { delivered: true, attempts };
  }
  return { delivered: false, attempts };
}
