// The sandbox's configuration as the app takes it, in a file of its own: src/config.ts reads it
// through src/config/sources.ts, which returns it, so neither imports the other for its type.
import type { ApiKey } from '../auth/keys.js';
import type { RandomFaults } from '../faults/random.js';
import type { WebhookTarget } from '../webhooks/target.js';

export interface SandboxConfig {
  seed: string;
  keys: readonly ApiKey[];
  /** Requests per second per key and client address; null when switched off. */
  rateLimit: number | null;
  /** The pinned clock of every answer (docs/snapshot-tests.md); null: the clock runs. */
  clock: Date | null;
  /** Where the events of writes go (docs/events-from-writes.md); null: nowhere. */
  webhook: WebhookTarget | null;
  /** Random faults for soak tests (docs/testing-retries.md); null: none. */
  faults: RandomFaults | null;
}
