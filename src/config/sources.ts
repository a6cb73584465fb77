// The ways into the configuration, each read into the one schema (src/config/settings.ts):
// - text, from environment variables or Workers [vars], and from the command's flags (which win
//   over the variables, and are named as flags when they gave the value);
// - createSandbox's options, typed already.
// Text is turned into typed values here (a number, "off", JSON, a comma list); every rule is the
// schema's, and every message names the way the value came in.
import type { z } from 'zod';
import type { SandboxConfig } from './sandbox-config.js';
import { didYouMean, shownName } from '../http/messages.js';
import { formatParam } from '../http/validation.js';
import { ConfigError, describeIssue, type Naming } from './problems.js';
import { EXAMPLE_TABLE } from './key-table.js';
import { SETTING_NAMES, type SettingName, Settings, type SettingsInput, withDefaults } from './settings.js';

/** The environment variables (the same names as Workers [vars]) and their flags. */
export const VARIABLES = {
  SANDBOX_SEED: '--seed',
  SANDBOX_RATE_LIMIT: '--rate-limit',
  SANDBOX_KEYS: '--keys',
  SANDBOX_CLOCK: '--clock',
  SANDBOX_WEBHOOK_URL: '--webhook-url',
  SANDBOX_WEBHOOK_SECRET: '--webhook-secret',
  SANDBOX_WEBHOOK_EVENTS: '--webhook-events',
  SANDBOX_FAULTS: '--faults',
} as const;

export type Variable = keyof typeof VARIABLES;
/** Text of each variable (Node reads a key-table file into text before calling). */
export type ConfigSources = { [name in Variable]?: string | undefined };

const VARIABLE_OF_SETTING: Record<Exclude<SettingName, 'webhook'>, Variable> = {
  seed: 'SANDBOX_SEED',
  rateLimit: 'SANDBOX_RATE_LIMIT',
  keys: 'SANDBOX_KEYS',
  clock: 'SANDBOX_CLOCK',
  faults: 'SANDBOX_FAULTS',
};
const WEBHOOK_VARIABLES: Record<'url' | 'secret' | 'events', Variable> = {
  url: 'SANDBOX_WEBHOOK_URL',
  secret: 'SANDBOX_WEBHOOK_SECRET',
  events: 'SANDBOX_WEBHOOK_EVENTS',
};

/**
 * The variable of a setting, or of a webhook's field: a webhook read from text always has its url,
 * so a problem of it is one of its fields.
 */
function variableOf(setting: SettingName, field: readonly PropertyKey[]): Variable {
  if (setting !== 'webhook') return VARIABLE_OF_SETTING[setting];
  return WEBHOOK_VARIABLES[field[0] as keyof typeof WEBHOOK_VARIABLES];
}

/**
 * Reads variables' text (`flagged`: those given by their flag, which are named so). A variable
 * set to nothing counts as not set, as shells and CI templates leave them; a flag given an empty
 * value is a mistake and says so.
 */
export function readText(sources: ConfigSources, flagged: ReadonlySet<Variable> = new Set()): SandboxConfig {
  const nameOf = (variable: Variable) => (flagged.has(variable) ? VARIABLES[variable] : variable);
  const naming: Naming = { of: (setting, field) => nameOf(variableOf(setting, field)) };
  const text = (variable: Variable): string | undefined => {
    const value = sources[variable];
    if (value === undefined) return undefined;
    return value.trim() === '' && !flagged.has(variable) ? undefined : value;
  };
  // A setting not given is undefined, which the schema takes as not given.
  const input: Record<string, unknown> = { seed: text('SANDBOX_SEED'), clock: text('SANDBOX_CLOCK'), faults: text('SANDBOX_FAULTS') };
  const rateLimit = text('SANDBOX_RATE_LIMIT');
  if (rateLimit !== undefined) input.rateLimit = rateLimitOf(rateLimit);
  const keys = text('SANDBOX_KEYS');
  if (keys !== undefined) input.keys = json(keys, nameOf('SANDBOX_KEYS'));
  const [url, secret, events] = (['SANDBOX_WEBHOOK_URL', 'SANDBOX_WEBHOOK_SECRET', 'SANDBOX_WEBHOOK_EVENTS'] as const).map(text);
  if (url !== undefined) {
    input.webhook = {
      url,
      ...(secret === undefined ? {} : { secret: secret.trim() }),
      ...(events === undefined ? {} : { events: events.trim() === '*' ? '*' : events.split(',').map((type) => type.trim()) }),
    };
  } else if (secret !== undefined || events !== undefined) {
    // A secret or a filter without a URL is a typo or a forgotten variable, never what was meant.
    const orphan: Variable = secret !== undefined ? 'SANDBOX_WEBHOOK_SECRET' : 'SANDBOX_WEBHOOK_EVENTS';
    // The URL in the same way the orphan came: a flag asks for its flag.
    const url = flagged.has(orphan) ? VARIABLES.SANDBOX_WEBHOOK_URL : 'SANDBOX_WEBHOOK_URL';
    throw new ConfigError(`${nameOf(orphan)} is set but ${url} is not: set the URL the events of writes go to`);
  }
  return read(input, naming);
}

/** Reads createSandbox's options (those that configure; `now` and `onEvent` are the caller's). */
export function readOptions(options: Record<string, unknown>, others: readonly string[]): SandboxConfig {
  const known = [...SETTING_NAMES, ...others];
  for (const name of Object.keys(options)) {
    if (!known.includes(name)) {
      throw new ConfigError(
        `createSandbox: unknown option ${shownName(name)}.${didYouMean(name, known)} The options are ${known.join(', ')}.`,
      );
    }
  }
  const naming: Naming = {
    // A field of a setting that is an object (webhook's url) inside the braces, an item's index after them.
    of: (setting, field) =>
      field.length === 0
        ? `createSandbox({ ${setting} })`
        : `createSandbox({ ${setting}: { ${String(field[0])} } })${formatParam(field.slice(1))}`,
  };
  // An option given as undefined is not given, as the schema takes it.
  const input: Record<string, unknown> = {};
  for (const name of SETTING_NAMES) input[name] = options[name];
  // The key table may be given as its JSON text, as SANDBOX_KEYS takes it; the rate limit as its text.
  if (typeof input.keys === 'string') input.keys = json(input.keys, naming.of('keys', []));
  if (typeof input.rateLimit === 'string') input.rateLimit = rateLimitOf(input.rateLimit);
  return read(input, naming);
}

function read(input: Record<string, unknown>, naming: Naming): SandboxConfig {
  // Parsed once per process: without zod's compiled fast path, which costs more to build (about
  // a millisecond at start-up) than a single parse gains from it.
  const result = Settings.safeParse(input, { jitless: true });
  if (result.success) return withDefaults(result.data);
  const issues = result.error.issues;
  // An unknown name first, as the API answers: its fix changes what else there is to say.
  const issue = issues.find((candidate) => candidate.code === 'unrecognized_keys') ?? (issues[0] as z.core.$ZodIssue);
  throw new ConfigError(describeIssue(issue, input as SettingsInput, naming));
}

function rateLimitOf(text: string): number | string {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === 'off') return 'off';
  return /^\d{1,6}$/.test(trimmed) ? Number(trimmed) : text;
}

function json(text: string, name: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${name} is not valid JSON (${(error as Error).message}); give an array of keys such as ${EXAMPLE_TABLE}`);
  }
}
