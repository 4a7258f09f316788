import { DomainEvent, eventSchemas } from '@app/domain';
import { Clock } from '../ports/clock.port';
import { NewEvent } from '../ports/event-store.port';
import { newEventId } from './time-ordered-ids';
import { CommandContext } from './command-context';

/**
 * A decided event as it is stored: a new time-ordered id, its type's current schema version, and
 * the metadata of the command that caused it (docs/decisions.md, "Event envelope").
 */
export function envelope(event: DomainEvent, context: CommandContext, clock: Clock): NewEvent {
  return {
    id: newEventId(),
    type: event.type,
    schemaVersion: eventSchemas.currentVersion(event.type),
    data: event.data,
    metadata: {
      workspaceId: context.workspaceId,
      actor: context.actor,
      requestId: context.requestId,
      correlationId: context.requestId,
      causationId: context.causationId,
      recordedAt: clock.now(),
    },
  };
}
