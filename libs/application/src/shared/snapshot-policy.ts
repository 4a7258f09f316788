import { EventStore } from '../ports/event-store.port';
import { SnapshotStore } from '../ports/snapshot-store.port';
import { AnyDecider } from './any-decider';
import { LoadedState } from './state-cache';

/** A new snapshot is stored once a stream has this many events past its last one. */
export const SNAPSHOT_EVERY = 250;

/** Where the command side reports what costs it time but never data (an unusable snapshot). */
export interface RepositoryLogger {
  warn(message: string, detail?: unknown): void;
}

/**
 * When a stream's state is stored as a snapshot, and when a stored one may be used.
 *
 * Invariant: a snapshot is a cache of a fold, never a source of truth. One is used only if it has
 * the decider's current snapshot shape (`version`) and is of the stream's present history (the
 * event at its revision is still the one it was taken at); otherwise, or when it cannot be read,
 * the events are folded instead. Storing one happens in the background and may fail: losing
 * snapshots costs time, not data.
 */
export class SnapshotPolicy {
  constructor(
    private readonly store: EventStore,
    private readonly snapshots: SnapshotStore | null,
    private readonly logger: RepositoryLogger,
  ) {}

  /** The stream's state as its stored snapshot has it, if there is one that may be used. */
  async restore(decider: AnyDecider, streamId: string): Promise<LoadedState | undefined> {
    if (!this.snapshots || !decider.snapshot) return undefined;
    try {
      const snapshot = await this.snapshots.get(streamId);
      if (!snapshot || snapshot.version !== decider.snapshot.version) return undefined;
      const [at] = await this.store.readStream(streamId, { fromRevision: snapshot.revision, maxCount: 1 });
      if (!at || at.id !== snapshot.eventId) return undefined;
      return {
        revision: snapshot.revision,
        state: decider.snapshot.fromSnapshot(snapshot.state),
        lastEventId: snapshot.eventId,
        snapshotRevision: snapshot.revision,
      };
    } catch (error) {
      this.logger.warn(`Snapshot of ${streamId} unreadable; folding its events instead`, error);
      return undefined;
    }
  }

  /**
   * Stores a snapshot of `loaded` when the stream is SNAPSHOT_EVERY events past its last one, and
   * records on `loaded` that it did. Never waited for, and never throws.
   */
  takeIfDue(decider: AnyDecider, streamId: string, loaded: LoadedState): void {
    if (!this.snapshots || !decider.snapshot || loaded.lastEventId === null) return;
    if (loaded.revision - loaded.snapshotRevision < SNAPSHOT_EVERY) return;
    loaded.snapshotRevision = loaded.revision;
    const { version, toSnapshot } = decider.snapshot;
    const failed = (error: unknown) => this.logger.warn(`Could not store a snapshot of ${streamId}`, error);
    try {
      const snapshot = {
        streamId,
        revision: loaded.revision,
        eventId: loaded.lastEventId,
        version,
        state: toSnapshot(loaded.state),
      };
      this.snapshots.put(snapshot).catch(failed);
    } catch (error) {
      failed(error);
    }
  }
}
