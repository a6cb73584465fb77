import { stateInvalid } from '../../errors.js';
import { defineEndpoint, reply } from '../../http/endpoint.js';
import { timestamp } from '../../schemas/new-records.js';
import { findRecord } from '../endpoints.js';
import { Container, UpdateContainerBody } from './schema.js';
import { nextContainerStatus, WEIGHT_FROZEN_STATUSES } from './transitions.js';

export const updateContainer = defineEndpoint({
  operationId: 'updateContainer',
  method: 'PATCH',
  path: '/v1/containers/{id}',
  pathId: 'container',
  scope: 'containers:write',
  summary: 'Move a container to its next status or record its weight',
  body: UpdateContainerBody,
  readonlyFields: ['id', 'object', 'job', 'profile', 'kind', 'storage_status', 'received_at', 'created_at'],
  success: { status: 200, schema: Container, description: 'The container with the change applied' },
  handlerErrors: [{ code: 'state_invalid', when: 'status is not the next one, or weight_lb changes on a shipped container' }],
  emits: [{ event: 'container.received', when: 'when it moves the container to received' }],
  handle({ account, id, body, now }) {
    const container = findRecord(account, 'containers', 'container', id);
    const updated: Container = { ...container };
    if (body.status !== undefined) {
      const next = nextContainerStatus(container.status);
      if (body.status !== next) {
        throw stateInvalid(
          next === null
            ? `Container ${container.id} is ${container.status}, its last status; it cannot move to ${body.status}.`
            : `Container ${container.id} is ${container.status}; it can only move forward to ${next}, not ${body.status}.`,
        );
      }
      updated.status = next;
      if (next === 'received') {
        // Receipt at a facility sets received_at and storage_status, as on sample records (docs/sample-data.md).
        updated.received_at = timestamp(now);
        updated.storage_status = 'within_limit';
      }
    }
    if (body.weight_lb !== undefined && body.weight_lb !== container.weight_lb) {
      if (WEIGHT_FROZEN_STATUSES.includes(container.status)) {
        throw stateInvalid(`Container ${container.id} is ${container.status}; its weight can no longer change.`);
      }
      updated.weight_lb = body.weight_lb;
    }
    return reply(200, updated, updated.status === 'received' && container.status !== 'received' ? ['container.received'] : undefined);
  },
});
