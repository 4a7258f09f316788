import { RecordedEvent } from '../ports/event-store.port';
import { CollectionSpec, WriteOp } from '../ports/read-model.port';

/**
 * Turns events into read-model writes. A projector is a pure function of the event (it never
 * reads the read model), which keeps it idempotent and lets a rebuild stream through history.
 */
export interface Projector {
  readonly name: string;
  readonly collections: CollectionSpec[];
  project(event: RecordedEvent): WriteOp[];
}
