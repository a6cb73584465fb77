// The Idempotency-Key step of a POST (the same key and body replay the stored answer, another
// body is a 409), between the scope check and validation (docs/behaviour.md, "Order of checks").
import { ApiError } from '../errors.js';
import { requestFingerprint } from '../idempotency/fingerprint.js';
import { IDEMPOTENCY_KEY_MAX, type IdempotencyStore, type StoredResponse } from '../idempotency/store.js';

export type Outcome = { response: StoredResponse; replayed: boolean };

/**
 * Results that are kept for replay: anything that passed validation and did not fail on our side.
 * What a write throws here is validation's 400, a handler's 404 or 422, or a fault, which is no
 * ApiError (answered 500). A 413 is answered as the body is read, before the key is looked at, and
 * the 500s of Sandbox-Simulate come before this step or after the answer is kept.
 */
function isStored(error: unknown): boolean {
  return error instanceof ApiError && error.status !== 400;
}

export async function withIdempotency(
  store: IdempotencyStore,
  options: {
    /**
     * Whose the Idempotency-Keys are: the API key, and on a shared key the client's address too
     * (SANDBOX.md, "Shared keys"). No NUL can occur in a header value, so the parts never blur.
     */
    owner: string;
    idempotencyKey: string;
    method: string;
    path: string;
    body: unknown;
  },
  run: () => Promise<StoredResponse>,
  errorToResponse: (error: ApiError) => StoredResponse,
): Promise<Outcome> {
  const { idempotencyKey } = options;
  if (idempotencyKey.length === 0 || idempotencyKey.length > IDEMPOTENCY_KEY_MAX) {
    throw new ApiError('parameter_invalid', {
      param: 'Idempotency-Key',
      message: `Invalid Idempotency-Key: must be 1 to ${IDEMPOTENCY_KEY_MAX} characters long, such as a UUID; received ${idempotencyKey.length === 0 ? 'an empty value' : `${idempotencyKey.length} characters`}.`,
    });
  }
  // Keys are scoped per owner: on a shared key (the public ones, used by everyone who reads the
  // docs) "try-it-1" is everyone's, and without the address a stranger would replay another's
  // answer (its whsec_ secret included) or get a 409 for a request they never sent. A
  // self-hoster's own key keeps its keys across addresses, so a CI job retried from another
  // runner replays.
  const key = `${options.owner}\u0000${idempotencyKey}`;
  const fingerprint = requestFingerprint(options.method, options.path, options.body);
  const claim = await store.claim(key, fingerprint);
  switch (claim.state) {
    case 'replay':
      return { response: claim.response, replayed: true };
    case 'mismatch':
      throw new ApiError('idempotency_conflict', {
        param: 'Idempotency-Key',
        message: 'This Idempotency-Key was already used with a different request (method, path or body). Use a new key for a new request.',
      });
    case 'in_flight':
      throw new ApiError('idempotency_conflict', {
        param: 'Idempotency-Key',
        message: 'A request with this Idempotency-Key is still being processed. Retry once it has finished.',
      });
  }
  // 'new': this request runs.
  let response: StoredResponse;
  try {
    response = await run();
  } catch (error) {
    if (!isStored(error)) {
      await store.release(key);
      throw error;
    }
    response = errorToResponse(error as ApiError);
  }
  await store.complete(key, fingerprint, response);
  return { response, replayed: false };
}
