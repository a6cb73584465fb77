// `waste-operations-sandbox trigger <event-type> --url <receiver>`: sends sample events of the
// seeded data to a receiver, signed as the reference signs deliveries, with retries, so an
// integrator can test their webhook receiver before production sends it anything. Exit code 0
// only when every event was delivered, 1 when one was not, 2 for a command line that cannot run.
import { didYouMean } from '../http/messages.js';
import { newWebhookSecret } from '../schemas/new-records.js';
import { EVENT_TYPES, type EventType } from '../resources/events/types.js';
import { createSandbox } from '../sandbox.js';
import { type DeliveryAttempt, deliver } from '../webhooks/deliver.js';
import { refusedSignature } from '../webhooks/dispatcher.js';
import { type SampleEvent, sampleEventById, sampleEventOfEachType, sampleEventOfType } from '../webhooks/sample-events.js';
import { parseFlags } from './flags.js';
import { UsageError } from './usage-error.js';
import { VERSION } from './version.js';

export const TRIGGER_USAGE = `Trigger: waste-operations-sandbox trigger <event-type> --url <receiver> [flags]
  <event-type>          one of ${EVENT_TYPES.join(', ')}
  --all                 one event of each of the ${EVENT_TYPES.length} types instead
  --event evt_…         that event of the sample data instead
  --url URL             the receiver (http or https; a local one is fine)
  --secret whsec_…      signing secret (default: a new one, printed)
  --seed TEXT           seed of the sample data (default the published seed)
  --timeout SECONDS     per attempt (default 10)
  --attempts N          tries per event (default 5)
  --backoff SECONDS     gap before the second try; each later gap doubles (default 1)
Exit code: 0 when every event was delivered (a 2xx answer), 1 when one was not, 2 for bad arguments.`;

function positiveNumber(
  flag: string,
  text: string | undefined,
  fallback: number,
  { whole = false, max = Number.MAX_SAFE_INTEGER } = {},
): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  const fits = text.trim() !== '' && Number.isFinite(value) && (whole ? Number.isInteger(value) && value >= 1 : value > 0) && value <= max;
  if (!fits) throw new UsageError(`--${flag} must be ${whole ? 'a whole number from 1' : 'a number above 0'} to ${max}, not "${text}"`);
  return value;
}

function receiverUrl(text: string | undefined): string {
  if (text === undefined)
    throw new UsageError('--url is required: the address of your webhook receiver, e.g. --url http://localhost:4242/webhooks');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--url must be an absolute http or https URL, not "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--url must use http or https, not ${url.protocol}`);
  return url.href;
}

function eventType(text: string): EventType {
  if ((EVENT_TYPES as readonly string[]).includes(text)) return text as EventType;
  throw new UsageError(`Unknown event type "${text}".${didYouMean(text, EVENT_TYPES)} The types are: ${EVENT_TYPES.join(', ')}.`);
}

function describeAttempt(attempt: DeliveryAttempt): string {
  const answer = attempt.status === undefined ? attempt.error : `${attempt.status}`;
  return `  attempt ${attempt.attempt}: ${answer} in ${attempt.ms} ms${attempt.delivered ? ' (delivered)' : ''}`;
}

export async function trigger(argv: readonly string[]): Promise<number> {
  const { values: flags, positionals } = parseFlags({
    args: [...argv],
    options: {
      url: { type: 'string' },
      secret: { type: 'string' },
      all: { type: 'boolean' },
      event: { type: 'string' },
      seed: { type: 'string' },
      timeout: { type: 'string' },
      attempts: { type: 'string' },
      backoff: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (flags.help) {
    console.log(TRIGGER_USAGE);
    return 0;
  }
  const chosen = [positionals.length > 0, flags.all === true, flags.event !== undefined].filter(Boolean).length;
  if (chosen !== 1 || positionals.length > 1) {
    throw new UsageError('Name exactly one of: an event type (e.g. trigger job.created), --all, or --event evt_…');
  }
  const type = positionals[0] === undefined ? undefined : eventType(positionals[0]);
  const url = receiverUrl(flags.url);
  if (flags.secret !== undefined && !/^whsec_\S+$/.test(flags.secret))
    throw new UsageError('--secret must be a signing secret beginning with whsec_');
  const timeoutSeconds = positiveNumber('timeout', flags.timeout, 10, { max: 600 });
  const attempts = positiveNumber('attempts', flags.attempts, 5, { whole: true, max: 20 });
  const backoffSeconds = positiveNumber('backoff', flags.backoff, 1, { max: 600 });

  const sandbox = createSandbox(flags.seed === undefined ? {} : { seed: flags.seed });
  let events: SampleEvent[];
  if (flags.all) events = await sampleEventOfEachType(sandbox);
  else if (type !== undefined) events = [await sampleEventOfType(sandbox, type)];
  else {
    const event = await sampleEventById(sandbox, flags.event as string);
    if (event === undefined)
      throw new UsageError(`No event "${flags.event}" in the sample data of seed ${sandbox.seed}; list them with GET /v1/events`);
    events = [event];
  }

  const secret = flags.secret ?? newWebhookSecret();
  console.log(
    flags.secret === undefined
      ? `Signing secret: ${secret} (a new one; pass --secret to use your receiver's)`
      : `Signing secret: ${secret} (from --secret)`,
  );

  let hintedSecret = false;
  const started = performance.now();
  let delivered = 0;
  for (const event of events) {
    console.log(`${event.type} ${event.id} → ${url}`);
    const result = await deliver(event.body, {
      url,
      secret,
      timeoutMs: timeoutSeconds * 1000,
      attempts,
      backoffMs: backoffSeconds * 1000,
      userAgent: `waste-operations-sandbox/${VERSION}`,
      onAttempt: (attempt) => {
        console.log(describeAttempt(attempt));
        // A receiver that checks signatures answers 400 or 401 to one signed with another secret:
        // say so once, rather than leaving every retry of every event to look like an outage.
        if (attempt.status !== undefined && refusedSignature(attempt.status) && !hintedSecret) {
          hintedSecret = true;
          console.log(
            `  ${attempt.status}: the receiver may have refused the signature; it must verify with the signing secret printed above.`,
          );
        }
      },
    });
    if (result.delivered) delivered++;
    else console.log(`  not delivered after ${attempts} attempt${attempts === 1 ? '' : 's'}`);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  console.log(`${delivered} of ${events.length} event${events.length === 1 ? '' : 's'} delivered in ${seconds} s`);
  return delivered === events.length ? 0 : 1;
}
