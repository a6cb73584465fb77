// A configuration that cannot be used, in words that name the way the value came in (`--seed`,
// `SANDBOX_SEED`, `createSandbox({ seed })`), say what it must be and what was received, and
// suggest a close value: the same words as the API's 400s (src/http/messages.ts).
import type { z } from 'zod';
import { choicesOf, didYouMean, expectation, receivedOf, shownName } from '../http/messages.js';
import { formatParam, valueAt } from '../http/validation.js';
import { KEY_FIELDS } from './key-table.js';
import { type SettingName, Settings } from './settings.js';

/** A configuration problem: the server exits 2 with it, createSandbox throws it, a Worker answers it. */
export class ConfigError extends TypeError {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/**
 * How one way in names a setting, and a field below it (the path under the setting, empty for the
 * setting itself): `--webhook-url`, `SANDBOX_WEBHOOK_URL`, `createSandbox({ webhook: { url } })`.
 */
export interface Naming {
  of(setting: SettingName, field: readonly PropertyKey[]): string;
}

/**
 * The first issue, in words. An unknown setting never gets here: each way in names only known ones
 * (createSandbox refuses an unknown option before, src/config/sources.ts); an unknown field of a
 * setting that is an object does.
 */
export function describeIssue(first: z.core.$ZodIssue, input: unknown, naming: Naming): string {
  const issue = closestBranch(first);
  const [setting, ...rest] = issue.path as [SettingName, ...PropertyKey[]];
  const params = (issue.code === 'custom' ? issue.params : undefined) as { whole?: boolean; hint?: string } | undefined;
  const sent = valueAt(input, issue.path);
  if (setting === 'keys') return keyTableProblem(naming.of('keys', []), issue, rest, sent, params);

  const name = naming.of(setting, rest);
  if (issue.code === 'unrecognized_keys') {
    const key = String(issue.keys[0]);
    const known = Object.keys((Settings.shape[setting] as unknown as z.ZodOptional<z.ZodObject>).unwrap().shape);
    return `${name}: unknown field ${shownName(key)}.${didYouMean(key, known)} It takes ${known.join(', ')}.`;
  }
  if (!sent.found) return `${name} is missing.`;
  if (params?.whole) return `${name} ${issue.message}`;
  return `${name} ${expectation(issue, sent.value)}; received ${receivedOf(issue, sent.value)}.${didYouMean(sent.value, choicesOf(issue))}${params?.hint ?? ''}`;
}

/**
 * Of a union's branches, the first that took the value's type and found something else wrong (a
 * list too short, an item not allowed: an issue below the value, or not about its type), which
 * says more than the union's own words ('*' or a list); else those words.
 */
function closestBranch(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  if (issue.code !== 'invalid_union') return issue;
  const telling = issue.errors
    .flat()
    .find((candidate) => candidate.path.length > 0 || (candidate.code !== 'invalid_type' && candidate.code !== 'invalid_value'));
  return telling === undefined ? issue : closestBranch({ ...telling, path: [...issue.path, ...telling.path] });
}

function keyTableProblem(
  name: string,
  issue: z.core.$ZodIssue,
  rest: readonly PropertyKey[],
  sent: { found: boolean; value: unknown },
  params: { whole?: boolean; hint?: string } | undefined,
): string {
  const table = `${name} is not a valid key table`;
  if (rest.length === 0) {
    return `${table}: it ${expectation(issue, sent.value)}; received ${receivedOf(issue, sent.value)}.${params?.hint ?? ''}`;
  }
  const [index, ...field] = rest;
  const entry = `${table}: entry [${String(index)}]`;
  if (issue.code === 'unrecognized_keys') {
    const key = String(issue.keys[0]);
    return `${entry}: unknown field ${shownName(key)}.${didYouMean(key, KEY_FIELDS)} The fields are key, account, scopes, revoked and shared.`;
  }
  if (field.length === 0) return `${entry} must be an object with key, account and scopes; received ${receivedOf(issue, sent.value)}.`;
  const fieldName = formatParam(field);
  if (!sent.found) return `${entry}: ${fieldName} is missing; every key needs key, account and scopes.`;
  if (params?.whole) return `${entry}: ${fieldName} ${issue.message}.`;
  return `${entry}: ${fieldName} ${expectation(issue, sent.value)}; received ${receivedOf(issue, sent.value)}.${didYouMean(sent.value, choicesOf(issue))}${params?.hint ?? ''}`;
}
