// `waste-operations-sandbox check-receiver <url> --secret <whsec_…>`: tests a webhook receiver
// against the reference's rules (src/webhooks/check-receiver.ts), one line per check. Exit code 0
// when every check passes, 1 when one fails (or nothing answers at the URL), 2 for a command line
// that cannot run, so a CI step can run it as it is.
import { EVENT_TYPES, type EventType } from '../resources/events/types.js';
import { didYouMean } from '../http/messages.js';
import { CHECK_TIMEOUT_MS, checkReceiver, RECEIVER_CHECKS, type ReceiverCheck } from '../webhooks/check-receiver.js';
import { parseFlags } from './flags.js';
import { UsageError } from './usage-error.js';
import { VERSION } from './version.js';

export const CHECK_RECEIVER_USAGE = `Check a receiver: waste-operations-sandbox check-receiver <url> --secret <whsec_…> [flags]
  <url>                 your webhook receiver (http or https; a local one is fine)
  --secret whsec_…      the signing secret your receiver verifies with
  --type TYPE           the event type every delivery carries (default job.created)
  --timeout SECONDS     how long each delivery waits for an answer (default ${CHECK_TIMEOUT_MS / 1000})
  --json                print { "url", "ok", "checks": [{ "name", "ok", "status", … }] } instead of lines
  Sends ${RECEIVER_CHECKS.length} deliveries of sample events to <url> only, one at a time, redirects not followed:
  ${RECEIVER_CHECKS.join(', ')}.
Exit code: 0 when every check passes, 1 when one fails or nothing answers at <url>, 2 for bad arguments.`;

function receiverUrl(positionals: readonly string[]): string {
  if (positionals.length === 0) {
    throw new UsageError("check-receiver needs your receiver's URL, e.g. check-receiver http://127.0.0.1:4242/webhooks --secret whsec_…");
  }
  if (positionals.length > 1) throw new UsageError(`check-receiver takes one URL, not ${positionals.length}: ${positionals.join(' ')}`);
  const text = positionals[0] as string;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(
      `The receiver's URL must be an absolute http:// or https:// URL, such as http://127.0.0.1:4242/webhooks, not "${text}"`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`The receiver's URL must use http or https, not ${url.protocol.replace(/:$/, '')} ("${text}")`);
  }
  return url.href;
}

function signingSecret(text: string | undefined): string {
  if (text === undefined) {
    throw new UsageError('--secret is required: the whsec_… signing secret your receiver verifies with, e.g. --secret whsec_yourSecret');
  }
  if (!/^whsec_\S+$/.test(text)) {
    throw new UsageError(
      `--secret must be a signing secret beginning with whsec_ (and no spaces), such as whsec_yourSecret; received "${text}"`,
    );
  }
  return text;
}

function eventType(text: string | undefined): EventType {
  if (text === undefined) return 'job.created';
  if ((EVENT_TYPES as readonly string[]).includes(text)) return text as EventType;
  throw new UsageError(
    `Unknown event type "${text}" for --type.${didYouMean(text, EVENT_TYPES)} The types are: ${EVENT_TYPES.join(', ')}.`,
  );
}

function timeoutMs(text: string | undefined): number {
  if (text === undefined) return CHECK_TIMEOUT_MS;
  const seconds = Number(text);
  if (text.trim() === '' || !Number.isFinite(seconds) || seconds <= 0 || seconds > 600) {
    throw new UsageError(`--timeout must be a number of seconds above 0, at most 600 (e.g. 10 or 0.5), not "${text}"`);
  }
  return Math.round(seconds * 1000);
}

/** One line per check: its name, PASS or FAIL, and for a FAIL what was sent, what came back and what to do. */
export function checkLine(check: ReceiverCheck): string {
  if (check.ok) return `PASS ${check.name}: ${check.answer.replace(/^the receiver /, '')} (expected ${check.expected})`;
  return `FAIL ${check.name}: sent ${check.sent}; ${check.answer} (expected ${check.expected}). ${check.must ?? ''}`.trimEnd();
}

export async function checkReceiverCommand(argv: readonly string[]): Promise<number> {
  const { values: flags, positionals } = parseFlags({
    args: [...argv],
    options: {
      secret: { type: 'string' },
      type: { type: 'string' },
      timeout: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (flags.help) {
    console.log(CHECK_RECEIVER_USAGE);
    return 0;
  }
  const url = receiverUrl(positionals);
  const secret = signingSecret(flags.secret);
  const type = eventType(flags.type);
  const timeout = timeoutMs(flags.timeout);

  if (!flags.json)
    console.log(`Checking ${url}: ${RECEIVER_CHECKS.length} deliveries of ${type} sample events, each answered within ${timeout / 1000} s`);
  const report = await checkReceiver(url, {
    secret,
    type,
    timeoutMs: timeout,
    userAgent: `waste-operations-sandbox/${VERSION} check-receiver`,
    onCheck: (check) => {
      if (!flags.json) console.log(checkLine(check));
    },
  });
  if (flags.json) {
    console.log(JSON.stringify(report, null, 2));
  } else if (report.unreachable !== undefined) {
    console.log(
      `Nothing answers at ${url} (${report.unreachable}): start your receiver first, or check the host and port. No other check was run.`,
    );
  } else {
    const passed = report.checks.filter((check) => check.ok).length;
    console.log(report.ok ? `All ${passed} checks passed.` : `${passed} of ${report.checks.length} checks passed.`);
  }
  return report.ok ? 0 : 1;
}
