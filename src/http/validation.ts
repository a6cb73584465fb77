// The one hook between zod and the error shape: every validation failure, query or body, is
// turned into a 400 here, with `param` as the dotted path of SANDBOX.md ("Errors").
import type { z } from 'zod';
import { ApiError } from '../errors.js';

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

function hasPath(input: unknown, path: readonly PathSegment[]): boolean {
  let value: unknown = input;
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return false;
    if (!Object.hasOwn(value, segment)) return false;
    value = (value as Record<PropertyKey, unknown>)[segment];
  }
  return true;
}

export interface ValidationContext {
  /** Fields that exist on the resource but that this endpoint cannot change. */
  readonlyFields?: readonly string[];
}

/** The first issue that matters, turned into an ApiError: unknown fields first, as Stripe does. */
export function issueToError(issues: readonly z.core.$ZodIssue[], input: unknown, context: ValidationContext = {}): ApiError {
  const unknown = issues.find((issue) => issue.code === 'unrecognized_keys');
  const issue = unknown ?? (issues[0] as z.core.$ZodIssue);
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] as string;
    const param = formatParam([...issue.path, key]);
    const readonly = issue.path.length === 0 && context.readonlyFields?.includes(key);
    // A field named "" has no name to give as param: say so in the message instead.
    if (key === '') {
      return new ApiError('parameter_invalid', {
        ...(issue.path.length > 0 ? { param: formatParam(issue.path) } : {}),
        message: `Received a parameter with an empty name${issue.path.length > 0 ? ` in ${formatParam(issue.path)}` : ''}.`,
      });
    }
    return new ApiError('parameter_invalid', {
      param,
      message: readonly ? `${param} cannot be changed by this endpoint.` : `Received unknown parameter: ${param}.`,
    });
  }
  const param = formatParam(issue.path);
  if (issue.path.length > 0 && !hasPath(input, issue.path)) {
    return new ApiError('parameter_missing', { param, message: `Missing required param: ${param}.` });
  }
  if (issue.path.length === 0) {
    return new ApiError('parameter_invalid', { message: `Invalid request: ${issue.message}.` });
  }
  return new ApiError('parameter_invalid', { param, message: `Invalid ${param}: ${issue.message}.` });
}

export function parseOrThrow<T extends z.ZodType>(schema: T, input: unknown, context?: ValidationContext): z.output<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw issueToError(result.error.issues, input, context);
}
