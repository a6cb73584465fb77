// SANDBOX_WEBHOOK_URL, _SECRET and _EVENTS (SANDBOX.md, "Events from writes"): where the events of
// writes go, how they are signed and which types are sent. Read once at start; a value that
// cannot be used stops the server, naming the variable.
import { didYouMean, listOf } from '../http/messages.js';
import { EVENT_TYPES, type EventType } from '../resources/events/types.js';
import { newWebhookSecret } from '../schemas/new-records.js';

export interface WebhookTarget {
  url: string;
  /** whsec_…; undefined until the entry point makes one (and prints it). */
  secret: string | undefined;
  /** The types to send: every one, or these. */
  events: '*' | readonly EventType[];
}

/** A target with the secret that signs its deliveries. */
export type SignedWebhookTarget = WebhookTarget & { secret: string };

/**
 * The target with its secret: the configured one, or one made now (Node and in-process entry
 * points, which show it; a Worker cannot, and requires it). `made` says which.
 */
export function signedTarget(target: WebhookTarget): SignedWebhookTarget & { made: boolean } {
  return target.secret === undefined
    ? { ...target, secret: newWebhookSecret(), made: true }
    : { ...target, secret: target.secret, made: false };
}

export interface WebhookSources {
  SANDBOX_WEBHOOK_URL?: string | undefined;
  SANDBOX_WEBHOOK_SECRET?: string | undefined;
  SANDBOX_WEBHOOK_EVENTS?: string | undefined;
}

/** The writes that emit, and what (SANDBOX.md): nothing else does. */
export const EMITTED_TYPES: readonly EventType[] = ['job.created', 'job.scheduled', 'container.received'];

export function readWebhookTarget(sources: WebhookSources): WebhookTarget | null {
  const url = sources.SANDBOX_WEBHOOK_URL?.trim();
  const secret = sources.SANDBOX_WEBHOOK_SECRET?.trim() || undefined;
  const events = sources.SANDBOX_WEBHOOK_EVENTS?.trim() || undefined;
  if (!url) {
    // A secret or a filter without a URL is a typo or a forgotten variable, never what was meant.
    const orphan = secret !== undefined ? 'SANDBOX_WEBHOOK_SECRET' : events !== undefined ? 'SANDBOX_WEBHOOK_EVENTS' : undefined;
    if (orphan !== undefined) throw new Error(`${orphan} is set but SANDBOX_WEBHOOK_URL is not: set the URL the events of writes go to`);
    return null;
  }
  return { url: parseUrl(url), secret: parseSecret(secret), events: parseEvents(events) };
}

function parseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(
      `SANDBOX_WEBHOOK_URL must be an absolute http:// or https:// URL such as http://127.0.0.1:4242/webhooks; received "${text}"`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`SANDBOX_WEBHOOK_URL must use http:// or https://; received "${text}"`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new Error('SANDBOX_WEBHOOK_URL must not carry a user name or password: receivers check the signature instead');
  }
  return url.href;
}

function parseSecret(secret: string | undefined): string | undefined {
  if (secret !== undefined && !/^whsec_[\x21-\x7e]+$/.test(secret)) {
    throw new Error(
      'SANDBOX_WEBHOOK_SECRET must be a signing secret beginning with whsec_ (no spaces), such as the one your receiver uses',
    );
  }
  return secret;
}

function parseEvents(text: string | undefined): WebhookTarget['events'] {
  if (text === undefined || text === '*') return '*';
  const types: EventType[] = [];
  for (const item of text.split(',').map((part) => part.trim())) {
    if (!(EVENT_TYPES as readonly string[]).includes(item)) {
      throw new Error(
        `SANDBOX_WEBHOOK_EVENTS must be * or a comma list of event types (writes emit ${listOf(EMITTED_TYPES)}); received "${item}".${didYouMean(item, EVENT_TYPES)}`,
      );
    }
    if (!types.includes(item as EventType)) types.push(item as EventType);
  }
  return types;
}

export function wantsEvent(target: WebhookTarget, type: EventType): boolean {
  return target.events === '*' || target.events.includes(type);
}
