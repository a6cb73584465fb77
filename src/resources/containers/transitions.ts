import { CONTAINER_STATUSES, type ContainerStatus } from './schema.js';

// A container moves only to the next status of open → full → received → consolidated → shipped
// (any other is a 422 state_invalid). The generator walks the same order.
export function nextContainerStatus(status: ContainerStatus): ContainerStatus | null {
  const index = CONTAINER_STATUSES.indexOf(status);
  return CONTAINER_STATUSES[index + 1] ?? null;
}

/** Statuses at or past receipt at a facility: received_at and storage_status are set exactly then. */
export function isReceived(status: ContainerStatus): boolean {
  return CONTAINER_STATUSES.indexOf(status) >= CONTAINER_STATUSES.indexOf('received');
}

/** weight_lb is frozen once the container has shipped. */
export const WEIGHT_FROZEN_STATUSES: readonly ContainerStatus[] = ['shipped'];
