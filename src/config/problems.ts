// A configuration that cannot be used, in words that name the way the value came in (`--seed`,
// `SANDBOX_SEED`, `createSandbox({ seed })`), say what it must be and what was received, and
// suggest a close value: the same words as the API's 400s (src/http/messages.ts).
import type { z } from 'zod';
import { choicesOf, didYouMean, expectation, receivedOf, shownName } from '../http/messages.js';
import { formatParam, valueAt } from '../http/validation.js';
import { KEY_FIELDS } from './key-table.js';
import type { SettingName } from './settings.js';

/** A configuration problem: the server exits 2 with it, createSandbox throws it, a Worker answers it. */
export class ConfigError extends TypeError {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** How one way in names a setting (and, below it, a field): `--webhook-url`, `SANDBOX_WEBHOOK_URL`. */
export interface Naming {
  of(setting: SettingName, field: string | undefined): string;
  /** The whole of it, for an unknown setting: `createSandbox`. */
  root: string;
}

/** The first issue, in words; `knownFields` lists what an object at its path takes (for an unknown one). */
export function describeIssue(
  first: z.core.$ZodIssue,
  input: unknown,
  naming: Naming,
  knownFields: (path: readonly PropertyKey[]) => readonly string[],
): string {
  const issue = closestBranch(first);
  const [setting, ...rest] = issue.path as [SettingName, ...PropertyKey[]];
  const params = (issue.code === 'custom' ? issue.params : undefined) as { whole?: boolean; hint?: string } | undefined;
  const sent = valueAt(input, issue.path);
  if (setting === 'keys') return keyTableProblem(naming.of('keys', undefined), issue, rest, sent, params);

  if (issue.code === 'unrecognized_keys') {
    const key = String(issue.keys[0]);
    const known = knownFields(issue.path);
    const where = setting === undefined ? naming.root : naming.of(setting, rest.length === 0 ? undefined : formatParam(rest));
    return `${where}: unknown ${setting === undefined ? 'option' : 'field'} ${shownName(key)}.${didYouMean(key, known)} ${setting === undefined ? 'The options are' : 'It takes'} ${known.join(', ')}.`;
  }
  const name = naming.of(setting, rest.length === 0 ? undefined : formatParam(rest));
  if (!sent.found) return `${name} is missing.`;
  if (params?.whole) return `${name} ${issue.message}`;
  return `${name} ${expectation(issue, sent.value)}; received ${receivedOf(issue, sent.value)}.${didYouMean(sent.value, choicesOf(issue))}${params?.hint ?? ''}`;
}

/**
 * Of a union's branches, the one the value came closest to: the issue deepest in the value, or one
 * that is not about its type. When no branch stands out, the union's own words ('*' or a list).
 */
function closestBranch(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  if (issue.code !== 'invalid_union') return issue;
  const score = (candidate: z.core.$ZodIssue) =>
    candidate.path.length * 2 + (candidate.code === 'invalid_type' || candidate.code === 'invalid_value' ? 0 : 1);
  let best: z.core.$ZodIssue | undefined;
  for (const branch of issue.errors) {
    const first = branch[0];
    if (first !== undefined && (best === undefined || score(first) > score(best))) best = first;
  }
  if (best === undefined || score(best) === 0) return issue;
  return closestBranch({ ...best, path: [...issue.path, ...best.path] });
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
