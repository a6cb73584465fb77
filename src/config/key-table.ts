// The key table a self-hoster gives (SANDBOX_KEYS, --keys, createSandbox({ keys }), Workers [vars]),
// as a zod schema: the one definition that checks it, words its problems (src/config/problems.ts)
// and turns it into the ApiKeys the key ring compares.
import { z } from 'zod';
import type { ApiKey } from '../auth/keys.js';
import { SCOPES, type Scope } from '../auth/scopes.js';
import { listOf } from '../http/messages.js';

export const EXAMPLE_TABLE = '[{"key":"svc_test_mine","account":"A","scopes":"*"}]';
const KEY_FORM = /^svc_test_[0-9A-Za-z_]{1,200}$/;
const ALLOWED_SCOPE = `one of the ${SCOPES.length} scopes: ${listOf(SCOPES)}`;

const Key = z.string().superRefine((key, ctx) => {
  if (KEY_FORM.test(key)) return;
  // The value is not repeated: it may be a real key pasted by mistake (a svc_live_ one).
  ctx.addIssue({
    code: 'custom',
    message: 'must begin with svc_test_, then 1 to 200 letters, digits or underscores',
    params: { received: `a string of ${key.length} characters that does not (not shown: it may be a real key)` },
  });
});

const Scopes = z.unknown().transform((scopes, ctx): readonly Scope[] => {
  if (scopes === '*') return SCOPES;
  if (!Array.isArray(scopes)) {
    // Only a string is one of the scopes: one scope alone, to be put in an array.
    const wrap = (SCOPES as readonly unknown[]).includes(scopes) ? ` Put it in an array: ["${scopes}"].` : '';
    ctx.addIssue({
      code: 'custom',
      message: `must be "*" (every scope) or an array of scopes, each ${ALLOWED_SCOPE}`,
      params: { hint: wrap },
    });
    return z.NEVER;
  }
  scopes.forEach((scope: unknown, position) => {
    if (!(SCOPES as readonly unknown[]).includes(scope)) {
      ctx.addIssue({ code: 'custom', path: [position], message: `must be ${ALLOWED_SCOPE}`, params: { choices: SCOPES } });
    }
  });
  return scopes as Scope[];
});

const KeyEntry = z.strictObject({
  key: Key,
  account: z.enum(['A', 'B'], { message: 'must be "A" or "B" (sample account A, or the smaller B)' }),
  scopes: Scopes,
  // "must be true or false": the words of any boolean (src/http/messages.ts, TYPE_WORDS).
  revoked: z.boolean().optional(),
  // A key handed to many people (SANDBOX.md, "Shared keys"): Idempotency-Keys are then per address.
  shared: z
    .boolean({
      message: 'must be true (a key many people use: each address gets its own Idempotency-Keys) or false (the default: one holder)',
    })
    .optional(),
});

/** The fields of an entry, for the message of an unknown one. */
export const KEY_FIELDS = ['key', 'account', 'scopes', 'revoked', 'shared'] as const;

export const KeyTable = z
  .unknown()
  .superRefine((table, ctx) => {
    if (Array.isArray(table)) return;
    const hint = table !== null && typeof table === 'object' ? ' Put the one key in brackets: [{…}].' : '';
    ctx.addIssue({ code: 'custom', message: `must be a JSON array of keys such as ${EXAMPLE_TABLE}`, params: { hint } });
  })
  .pipe(
    z
      .array(KeyEntry)
      .min(1, `must list at least one key, such as ${EXAMPLE_TABLE}`)
      .superRefine((entries, ctx) => {
        const firstIndexOf = new Map<string, number>();
        entries.forEach((entry, index) => {
          const first = firstIndexOf.get(entry.key);
          if (first === undefined) firstIndexOf.set(entry.key, index);
          else
            ctx.addIssue({
              code: 'custom',
              path: [index, 'key'],
              message: `is listed twice (as entry [${first}] too); list each key once`,
              params: { whole: true },
            });
        });
      }),
  )
  .transform((entries): ApiKey[] =>
    entries.map(({ key, account, scopes, revoked = false, shared = false }) => ({
      key,
      account,
      scopes: new Set(scopes),
      revoked,
      shared,
    })),
  );
