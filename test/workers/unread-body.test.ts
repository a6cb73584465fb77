// A body the answer did not need (docs/workers.md, "No runtime 503"): the Worker reads the rest of
// it before the answer goes, up to the 1 MiB a body may be; past that, or when Content-Length
// already says more, it refuses (cancels) it, as the 413 refuses it. A client gone mid-body leaves
// the answer as it was. The body here is a stream the test hands out piece by piece, so the test
// sees how much the Worker read by the time it answered, and whether it cancelled.
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import worker from '../../src/worker.js';

/** SANDBOX.md, "Errors": a body over 1 MiB is refused. */
const MIB = 1024 * 1024;
/** The size of each piece handed out. */
const PIECE = 16 * 1024;

interface Fed {
  /** Bytes handed out. */
  read: number;
  /** The reader asked past the last byte and was told the body ended. */
  ended: boolean;
  cancelled: boolean;
}

/** A body of `size` bytes, handed out as it is read; after `failAt` bytes it fails, its client gone. */
function bodyOf(size: number, failAt?: number): { body: ReadableStream<Uint8Array>; fed: Fed } {
  const fed: Fed = { read: 0, ended: false, cancelled: false };
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (failAt !== undefined && fed.read >= failAt) {
          controller.error(new Error('the client went away'));
        } else if (fed.read >= size) {
          fed.ended = true;
          controller.close();
        } else {
          const length = Math.min(PIECE, size - fed.read);
          fed.read += length;
          controller.enqueue(new Uint8Array(length).fill(0x20));
        }
      },
      cancel() {
        fed.cancelled = true;
      },
    },
    // Nothing read ahead: a piece is handed out only when the Worker asks for it.
    { highWaterMark: 0 },
  );
  return { body, fed };
}

/**
 * A POST without a key, answered 401 before anything reads its body; what the body had handed out
 * when the answer came back, and the answer.
 */
async function postWithoutKey(size: number, options: { declared?: number; failAt?: number } = {}) {
  const { body, fed } = bodyOf(size, options.failAt);
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (options.declared !== undefined) headers['Content-Length'] = String(options.declared);
  const request = new Request('https://sandbox.example/v1/jobs', { method: 'POST', headers, body });
  const ctx = createExecutionContext();
  const response = await worker.fetch(request as Parameters<typeof worker.fetch>[0], { ...env, SANDBOX_RATE_LIMIT: 'off' }, ctx);
  const atAnswer = { ...fed };
  await waitOnExecutionContext(ctx);
  const json = (await response.json()) as { error: { code: string } };
  return { status: response.status, code: json.error.code, atAnswer };
}

describe('a body the answer did not need', () => {
  it('is read to its end before the answer goes', async () => {
    const { status, code, atAnswer } = await postWithoutKey(256 * 1024);
    expect({ status, code }).toEqual({ status: 401, code: 'api_key_missing' });
    expect(atAnswer).toEqual({ read: 256 * 1024, ended: true, cancelled: false });
  });

  it('is read to its end at exactly 1 MiB, with or without Content-Length', async () => {
    expect((await postWithoutKey(MIB)).atAnswer).toEqual({ read: MIB, ended: true, cancelled: false });
    expect((await postWithoutKey(MIB, { declared: MIB })).atAnswer).toEqual({ read: MIB, ended: true, cancelled: false });
  });

  it('past 1 MiB without Content-Length, is read no further than the piece that passes it, then cancelled', async () => {
    const { status, atAnswer } = await postWithoutKey(3 * MIB);
    expect(status).toBe(401);
    expect(atAnswer).toEqual({ read: MIB + PIECE, ended: false, cancelled: true });
  });

  it('with a Content-Length over 1 MiB, is cancelled unread', async () => {
    const { status, atAnswer } = await postWithoutKey(MIB + 1, { declared: MIB + 1 });
    expect(status).toBe(401);
    expect(atAnswer).toEqual({ read: 0, ended: false, cancelled: true });
  });

  it('that fails midway (its client gone) leaves the answer as it was', async () => {
    const { status, code, atAnswer } = await postWithoutKey(MIB, { failAt: 4 * PIECE });
    expect({ status, code }).toEqual({ status: 401, code: 'api_key_missing' });
    expect(atAnswer).toMatchObject({ read: 4 * PIECE, ended: false });
  });
});
