// The configuration as one schema of typed values. Every way in reads into it: flags and
// environment variables (src/cli/serve.ts), Workers [vars] (src/worker/apps.ts) and
// createSandbox's options (src/sandbox.ts), each turning its text into these values first
// (src/config/sources.ts). Its problems are worded once (src/config/problems.ts), naming the way
// the value came in.
import { z } from 'zod';
import { DEFAULT_KEYS } from '../auth/keys.js';
import { parsePinnedTime, pinnedTimeRule } from '../clock/pinned-time.js';
import { DEFAULT_SEED } from '../data/dataset.js';
import { parseRandomFaults } from '../faults/random.js';
import { quoted } from '../http/messages.js';
import { EMITTED_TYPES } from '../webhooks/target.js';
import { KeyTable } from './key-table.js';

export const DEFAULT_RATE_LIMIT = 25;

const Seed = z.string({ message: 'must be text' }).refine((seed) => seed.trim() !== '', {
  message: 'must not be empty: give a seed, or leave it out for the published one',
});

const RateLimit = z.custom<number | 'off'>(
  (value) => value === 'off' || (Number.isInteger(value) && Number(value) >= 1 && Number(value) <= 999_999),
  {
    message: 'must be a whole number of requests per second (1 or more) or "off"',
  },
);

const Clock = z.unknown().transform((value, ctx): Date => {
  if (value instanceof Date && !Number.isNaN(value.getTime())) return new Date(Math.floor(value.getTime() / 1000) * 1000);
  const time = typeof value === 'string' ? parsePinnedTime(value.trim()) : undefined;
  if (time !== undefined) return time;
  ctx.addIssue({ code: 'custom', message: pinnedTimeRule(String(value)), params: { whole: true } });
  return z.NEVER;
});

const WebhookUrl = z
  .string({ message: 'must be an absolute http:// or https:// URL such as http://127.0.0.1:4242/webhooks' })
  .transform((text, ctx) => {
    let url: URL | undefined;
    try {
      url = new URL(text.trim());
    } catch {}
    const problem =
      url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')
        ? 'must be an absolute http:// or https:// URL such as http://127.0.0.1:4242/webhooks'
        : url.username !== '' || url.password !== ''
          ? 'must not carry a user name or password (receivers check the signature instead)'
          : undefined;
    if (problem === undefined) return (url as URL).href;
    ctx.addIssue(problem);
    return z.NEVER;
  });

// The schema's message is its checks' too (zod 4): one text for a secret that is not text and
// for one that is not a whsec_ one.
const WebhookSecret = z
  .string({ message: 'must be a signing secret beginning with whsec_ (no spaces), such as the one your receiver uses' })
  .regex(/^whsec_[\x21-\x7e]+$/);

/** Only the types a write emits: a filter on any other would promise events that never come. */
const WebhookEvents = z.union(
  [
    z.literal('*'),
    z
      .array(
        z.enum(EMITTED_TYPES as [string, ...string[]], { message: `must be one of the types writes emit: ${EMITTED_TYPES.join(', ')}` }),
      )
      .min(1, "must list at least one event type, or be '*' (the default)")
      .transform((types) => [...new Set(types)]),
  ],
  { message: `must be '*' (the default) or a list of the types writes emit: ${EMITTED_TYPES.join(', ')}` },
);

const Webhook = z.strictObject({
  url: WebhookUrl,
  secret: WebhookSecret.optional(),
  events: WebhookEvents.optional(),
});

const Faults = z.string({ message: 'must be text such as api_error=0.02,delay=0.05:1500' }).transform((text, ctx) => {
  try {
    return parseRandomFaults(text);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message, params: { whole: true, received: quoted(text) } });
    return z.NEVER;
  }
});

/** Every setting, each optional: what is not given takes its default. */
export const Settings = z.strictObject({
  seed: Seed.optional(),
  rateLimit: RateLimit.optional(),
  keys: KeyTable.optional(),
  clock: Clock.optional(),
  webhook: Webhook.optional(),
  faults: Faults.optional(),
});

export type SettingsInput = z.input<typeof Settings>;
export type SettingName = keyof SettingsInput;
export const SETTING_NAMES = Object.keys(Settings.shape) as SettingName[];

/** The settings with their defaults, as the app takes them. */
export function withDefaults(settings: z.output<typeof Settings>) {
  return {
    seed: settings.seed ?? DEFAULT_SEED,
    keys: settings.keys ?? DEFAULT_KEYS,
    rateLimit: settings.rateLimit === 'off' ? null : (settings.rateLimit ?? DEFAULT_RATE_LIMIT),
    clock: settings.clock ?? null,
    webhook:
      settings.webhook === undefined
        ? null
        : {
            url: settings.webhook.url,
            secret: settings.webhook.secret,
            events: (settings.webhook.events ?? '*') as '*' | (typeof EMITTED_TYPES)[number][],
          },
    faults: settings.faults ?? null,
  };
}
