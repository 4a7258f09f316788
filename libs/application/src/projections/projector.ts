import { RecordedEvent } from '../ports/event-store.port';
import { CollectionSpec, WriteOp } from '../ports/read-model.port';

/**
 * Turns events into read-model writes. A projector is a pure function of the event (it never
 * reads the read model), which keeps it idempotent and lets a rebuild stream through history.
 * It returns new op objects on every call: the engine stamps them (`at`, a shadow collection)
 * in place rather than copying each one.
 */
export interface Projector {
  readonly name: string;
  readonly collections: CollectionSpec[];
  /**
   * The event types `project` writes anything for, when it is a fixed set: the engine then skips
   * every other event without calling it (a rebuild of one projection passes over most of a long
   * history). Absent: every event is offered.
   */
  readonly handles?: readonly string[];
  project(event: RecordedEvent): WriteOp[];
}

/** Whether a projector wants an event: `handles` as a set, made once per projector. */
export function eventFilter(projector: Projector): (type: string) => boolean {
  if (!projector.handles) return () => true;
  const types = new Set(projector.handles);
  return (type) => types.has(type);
}

/**
 * The write of a resource's document as its creation event leaves it: listed at the event's
 * position (the list order), at the event's revision of the resource's stream (its version).
 */
export function putCreated(
  recorded: RecordedEvent,
  collection: string,
  id: string,
  workspaceId: string,
  doc: Record<string, unknown>,
): WriteOp {
  return { op: 'put', collection, id, workspaceId, seq: recorded.position, version: recorded.revision, doc };
}
