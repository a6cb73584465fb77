// The parsers zod compiles from now on: it compiles an object schema's fast path with
// new Function, a body that reads `payload`. Counted through a stand-in for the global Function
// that passes every call on; the caller undoes it (vi.unstubAllGlobals).
import { vi } from 'vitest';

export function watchZodCompiles(): string[] {
  const compiled: string[] = [];
  const original = globalThis.Function;
  vi.stubGlobal(
    'Function',
    new Proxy(original, {
      construct(target, args) {
        const body = String(args.at(-1) ?? '');
        if (body.includes('payload')) compiled.push(body);
        return Reflect.construct(target, args);
      },
    }),
  );
  return compiled;
}
