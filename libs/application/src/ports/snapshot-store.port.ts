export const SNAPSHOT_STORE = Symbol('SnapshotStore');

/**
 * An aggregate's folded state as of one revision of its stream, so that loading a long stream
 * reads the snapshot and the events after it instead of the whole history.
 */
export interface Snapshot {
  streamId: string;
  /** Revision of the last event folded into `state`. */
  revision: number;
  /**
   * Id of the event at `revision`: a snapshot whose stream no longer has that event there (a
   * store restored from an older backup, a test that reset the events) is ignored.
   */
  eventId: string;
  /** The aggregate's snapshot shape version (Decider.snapshot.version). */
  version: number;
  state: unknown;
}

/**
 * Snapshots are a cache of a fold, never a source of truth: losing them costs time, not data.
 * Adapters: SQLite (default, DATA_DIR/snapshots.db) and MongoDB; both pass
 * test/contract/snapshot-store.contract.ts.
 */
export interface SnapshotStore {
  get(streamId: string): Promise<Snapshot | null>;
  /** Keeps the newest: a snapshot older than the stored one (a slower process) is ignored. */
  put(snapshot: Snapshot): Promise<void>;
  close(): Promise<void>;
}
