// The one hook between zod and the error shape: every validation failure, query or body, is
// turned into a 400 here, with `param` as the dotted path of docs/behaviour.md ("Errors") and a
// message worded by ./messages.ts.
import type { z } from 'zod';
import { ApiError } from '../errors.js';
import { choicesOf, didYouMean, expectation, quoted, receivedOf, shownName } from './messages.js';

type PathSegment = PropertyKey;

/** ['address', 'city'] → 'address.city'; ['waste_codes', 2] → 'waste_codes[2]'. */
export function formatParam(path: readonly PathSegment[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? String(segment) : `.${String(segment)}`;
  }
  return text;
}

/** The value at a path of what was sent, and whether it is there at all. */
export function valueAt(input: unknown, path: readonly PathSegment[]): { found: boolean; value: unknown } {
  let value: unknown = input;
  for (const segment of path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, segment)) return { found: false, value: undefined };
    value = (value as Record<PropertyKey, unknown>)[segment];
  }
  return { found: true, value };
}

interface SchemaDef {
  type: string;
  shape?: Record<string, unknown>;
  innerType?: { _zod: { def: SchemaDef } };
  in?: { _zod: { def: SchemaDef } };
  element?: { _zod: { def: SchemaDef } };
}

/** The field names the schema takes at a path, for "Did you mean …?" on an unknown one. */
function knownKeysAt(schema: z.ZodType, path: readonly PathSegment[]): string[] {
  let def = (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;
  let rest = [...path];
  for (let steps = 0; steps < 64; steps++) {
    const inner = def.innerType ?? def.in;
    if (inner !== undefined) def = inner._zod.def;
    else if (rest.length === 0) return def.type === 'object' && def.shape ? Object.keys(def.shape) : [];
    else if (def.type === 'object' && def.shape) {
      // Own keys only: a field named constructor or toString is no key of Object.prototype's.
      const key = String(rest[0]);
      const next = Object.hasOwn(def.shape, key) ? (def.shape[key] as { _zod: { def: SchemaDef } }) : undefined;
      if (next === undefined) return [];
      def = next._zod.def;
      rest = rest.slice(1);
    } else if (def.type === 'array' && def.element && typeof rest[0] === 'number') {
      def = def.element._zod.def;
      rest = rest.slice(1);
    } else return [];
  }
  return [];
}

export interface ValidationContext {
  /** Fields that exist on the resource but that this endpoint cannot change. */
  readonlyFields?: readonly string[];
}

/**
 * Names other APIs give a parameter of the reference, too far from it in spelling for "Did you
 * mean" to find: a client written for a cursor-paged API sends `cursor` (issue #35). Suggested
 * only where the reference's name is a parameter of the endpoint.
 */
const OTHER_APIS_NAMES: Readonly<Record<string, { name: string; why: string }>> = {
  cursor: { name: 'starting_after', why: "Send the previous page's next_cursor as starting_after." },
  next_cursor: { name: 'starting_after', why: "Send the previous page's next_cursor as starting_after." },
  after: { name: 'starting_after', why: "Send the previous page's next_cursor as starting_after." },
  page_size: { name: 'limit', why: 'limit takes 1 to 100 records a page.' },
  per_page: { name: 'limit', why: 'limit takes 1 to 100 records a page.' },
};

/** A union's first branch's first issue, at its full path: the clearest thing to say about it. */
function innermost(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  if (issue.code !== 'invalid_union') return issue;
  const first = issue.errors[0]?.[0];
  return first === undefined ? issue : innermost({ ...first, path: [...issue.path, ...first.path] });
}

/**
 * The first issue that matters, turned into an ApiError: unknown fields first, as Stripe does.
 * Messages are worded by src/http/messages.ts, never by the validation library.
 */
export function issueToError(
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
  context: ValidationContext = {},
  schema?: z.ZodType,
): ApiError {
  const unknown = issues.find((issue) => issue.code === 'unrecognized_keys');
  if (unknown?.code === 'unrecognized_keys') {
    const key = unknown.keys[0] as string;
    const where = formatParam(unknown.path);
    // A field named "" has no name to give as param: name its object, or say so in the message.
    if (key === '') {
      return new ApiError('parameter_invalid', {
        ...(where === '' ? {} : { param: where }),
        message: `Received a parameter with an empty name${where === '' ? '' : ` in ${where}`}; every parameter needs a name.`,
      });
    }
    const param = formatParam([...unknown.path, key]);
    if (unknown.path.length === 0 && context.readonlyFields?.includes(key)) {
      return new ApiError('parameter_invalid', { param, message: `${param} cannot be changed by this endpoint.` });
    }
    const known = schema === undefined ? undefined : knownKeysAt(schema, unknown.path);
    // Own keys only: a parameter named constructor is no name of another API.
    const otherName = Object.hasOwn(OTHER_APIS_NAMES, key) ? OTHER_APIS_NAMES[key] : undefined;
    const suggestion =
      otherName !== undefined && known?.includes(otherName.name) === true
        ? ` Did you mean ${quoted(otherName.name)}? ${otherName.why}`
        : didYouMean(key, known);
    return new ApiError('parameter_invalid', { param, message: `Received unknown parameter: ${shownName(param)}.${suggestion}` });
  }
  const issue = innermost(issues[0] as z.core.$ZodIssue);
  const param = formatParam(issue.path);
  const sent = valueAt(input, issue.path);
  // The body itself (path []) is always there: only a field can be missing.
  if (!sent.found) {
    return new ApiError('parameter_missing', { param, message: `Missing required param: ${param}.` });
  }
  const words = `${expectation(issue, sent.value)}; received ${receivedOf(issue, sent.value)}.${didYouMean(sent.value, choicesOf(issue))}`;
  if (param === '') return new ApiError('parameter_invalid', { message: `Invalid request: the body ${words}` });
  return new ApiError('parameter_invalid', { param, message: `Invalid ${shownName(param)}: ${words}` });
}

/** Schemas parsed at least once (see parseOrThrow). */
const parsedBefore = new WeakSet<z.ZodType>();
/** zod's parse context that skips its compiled fast path. */
const ONE_OFF = { jitless: true } as const;

export function parseOrThrow<T extends z.ZodType>(schema: T, input: unknown, context?: ValidationContext): z.output<T> {
  // zod compiles an object schema's fast path (new Function) on its first parse, which costs the
  // first request of an endpoint a millisecond or two: more than a parse gains from it unless the
  // schema is parsed again. The first parse of each schema goes without it; the second compiles
  // it, like a JIT's tiers. (Workers allow no new Function: there every parse goes without.)
  let result: z.ZodSafeParseResult<z.output<T>>;
  if (parsedBefore.has(schema)) result = schema.safeParse(input);
  else {
    parsedBefore.add(schema);
    result = schema.safeParse(input, ONE_OFF);
  }
  if (result.success) return result.data;
  throw issueToError(result.error.issues, input, context, schema);
}
