// Where the events of writes go (docs/events-from-writes.md), how they are signed and which types
// are sent; read, like all configuration, by src/config/settings.ts.
import type { EventType } from '../resources/events/types.js';
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

/** The writes that emit, and what (docs/events-from-writes.md): nothing else does. */
export const EMITTED_TYPES: readonly EventType[] = ['job.created', 'job.scheduled', 'container.received'];

export function wantsEvent(target: WebhookTarget, type: EventType): boolean {
  return target.events === '*' || target.events.includes(type);
}
