// A schema's first parse goes without zod's compiled fast path and its second compiles it
// (src/http/validation.ts, parseOrThrow): an endpoint's first request compiles no parser it may
// use once. Either way the answer is the same: the value, or the same error. Observed by counting
// the parsers zod compiles (test/zod-compiles.ts), on schemas made here, which no other test has
// parsed. test/start-up-schemas.test.ts holds it through HTTP. Both rest on a schema being built
// once and kept (src/schemas/deferred.ts), which the last test holds through HTTP: a schema built
// for each request would never be parsed twice.
import { z } from '@hono/zod-openapi';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../src/errors.js';
import { parseOrThrow } from '../src/http/validation.js';
import { createSandbox } from '../src/index.js';
import { watchZodCompiles } from './zod-compiles.js';

const schema = () => z.object({ name: z.string().min(1), window: z.object({ start: z.string(), end: z.string() }) });
const VALID = { name: 'Depot', window: { start: '08:00', end: '12:00' } };

function errorOf(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('parseOrThrow compiles a schema on its second parse', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('the first parse compiles nothing, the second compiles, later ones reuse it; the value is the same', () => {
    const compiled = watchZodCompiles();
    const fresh = schema();
    expect(parseOrThrow(fresh, VALID)).toEqual(VALID);
    expect(compiled).toEqual([]);
    expect(parseOrThrow(fresh, VALID)).toEqual(VALID);
    const afterSecond = compiled.length;
    expect(afterSecond).toBeGreaterThan(0);
    expect(parseOrThrow(fresh, VALID)).toEqual(VALID);
    expect(compiled.length).toBe(afterSecond);
  });

  it('a first parse that fails counts as a parse, and gives the error a compiled parse gives', () => {
    const compiled = watchZodCompiles();
    const invalid = { name: '', window: { start: '08:00', end: 12 } };
    const fresh = schema();
    const first = errorOf(() => parseOrThrow(fresh, invalid));
    expect(compiled).toEqual([]);
    const second = errorOf(() => parseOrThrow(fresh, invalid));
    expect(compiled.length).toBeGreaterThan(0);
    expect(second.code).toBe(first.code);
    expect(second.message).toBe(first.message);
    expect(first.code).toBe('parameter_invalid');
  });
});

describe("an endpoint's schemas are built by its first request and kept", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('two requests to POST /v1/sites build each named schema of its body at most once', async () => {
    // The names the schemas give themselves for the document (`.openapi('CreateSiteBody')`) as
    // each is built. Schemas this worker built before the test are not built again: none, or each
    // once (the mutation run builds them again in every test: test/mutate-setup.ts).
    const built: string[] = [];
    const openapi = z.ZodType.prototype.openapi;
    vi.spyOn(z.ZodType.prototype, 'openapi').mockImplementation(function (this: z.ZodType, ...args: unknown[]) {
      if (typeof args[0] === 'string') built.push(args[0]);
      return (openapi as (...given: unknown[]) => z.ZodType).apply(this, args);
    });
    const sandbox = createSandbox();
    for (let request = 0; request < 2; request++) {
      const answer = await sandbox.fetch(
        new Request('http://sandbox.test/v1/sites', {
          method: 'POST',
          headers: { Authorization: 'Bearer svc_test_sandbox_public', 'Content-Type': 'application/json' },
          body: JSON.stringify({ client: 'cli_x', name: 'Depot' }),
        }),
      );
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { error: { param: string } }).error.param).toBe('address');
    }
    expect(built.length, built.join(', ')).toBe(new Set(built).size);
  });
});
