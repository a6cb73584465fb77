// Schemas are built when first used, not when the module loads. Building every endpoint's zod
// schemas took about 20 ms of each start (Node 22, compile cache warm; more on Node 20 and in a
// new Workers isolate), and the first request needs only its own endpoint's (docs/operations.md,
// "Start-up"). A schema is still defined once, where it was; only its construction waits.

/** A schema (or anything) built by its first call and the same object on every later call. */
export type Deferred<T> = () => T;

/**
 * `build` runs on the first call only. The OpenAPI document names a component by the schema
 * object it meets, so every use must get the same one: hence built once, never per call.
 */
export function deferred<T>(build: () => T): Deferred<T> {
  let built: T | undefined;
  return () => {
    if (built === undefined) built = build();
    return built;
  };
}
