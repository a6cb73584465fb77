// Every error, thrown by any step, answered in the reference's shape (src/errors.ts): an ApiError
// as itself; anything else is a real fault, logged for the operator, and the client is told only
// that it may retry (the reference's 500: "safe to retry with the same Idempotency-Key").
import type { Context } from 'hono';
import { ApiError } from '../errors.js';
import type { SandboxEnv } from '../http/env.js';
import { errorResponse, type Responder } from '../http/reply.js';

export function answerError(respond: Responder) {
  return (error: Error, c: Context<SandboxEnv>): Response => {
    if (error instanceof ApiError) return errorResponse(respond, c, error);
    console.error(`[${respond.requestId(c)}] ${c.req.method} ${c.req.path}:`, error);
    return errorResponse(
      respond,
      c,
      new ApiError('api_error', { message: 'An internal error occurred. Retry with the same Idempotency-Key.' }),
    );
  };
}
