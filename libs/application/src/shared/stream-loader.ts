import { setImmediate } from 'node:timers/promises';
import { DomainEvent } from '@app/domain';
import { EventStore } from '../ports/event-store.port';
import { SnapshotStore } from '../ports/snapshot-store.port';
import { dropOldest } from './drop-oldest';
import { AnyDecider } from './unit-of-work';

/**
 * Events read and folded per step when loading a stream, with the event loop free in between:
 * a long stream without a snapshot never holds other requests up for more than one step.
 */
export const LOAD_CHUNK = 500;

/**
 * Loads streams: the state held in memory, else the stored snapshot, else the initial state,
 * plus the events after it, read and folded LOAD_CHUNK at a time. What it loads or is told was
 * appended is held for the next command (StateCache) and snapshotted when due
 * (SnapshotPolicy). Events arrive upcast to their current shape: the store it is given is the
 * upcasting one (upcasting-event-store.ts).
 */
export class StreamLoader {
  constructor(
    private readonly store: EventStore,
    private readonly cache: StateCache,
    private readonly snapshots: SnapshotPolicy,
  ) {}

  /** The state held in memory, as it is: possibly behind the store (see StateCache). */
  held(streamId: string): LoadedState | undefined {
    return this.cache.get(streamId);
  }

  /** The stream's current state, read from the store from where memory or a snapshot leaves off. */
  async load(decider: AnyDecider, streamId: string): Promise<LoadedState> {
    const from = this.cache.get(streamId) ?? (await this.snapshots.restore(decider, streamId));
    let state = from?.state ?? decider.initialState();
    let revision = from?.revision ?? -1;
    let lastEventId = from?.lastEventId ?? null;
    for (;;) {
      const chunk = await this.store.readStream(streamId, { fromRevision: revision + 1, maxCount: LOAD_CHUNK });
      for (const event of chunk) state = decider.evolve(state, event as unknown as DomainEvent);
      if (chunk.length > 0) {
        revision = chunk[chunk.length - 1].revision;
        lastEventId = chunk[chunk.length - 1].id;
      }
      if (chunk.length < LOAD_CHUNK) break;
      await setImmediate(); // let other requests run between chunks
    }
    // Held and nothing newer: the held entry itself, as it is.
    if (from && revision === from.revision && this.cache.get(streamId) === from) return from;
    const loaded: LoadedState = { revision, state, lastEventId, snapshotRevision: from?.snapshotRevision ?? -1 };
    this.hold(decider, streamId, loaded);
    return loaded;
  }

  /** Whether the stream has no event after `revision`: one read of at most one event. */
  async isAt(streamId: string, revision: number): Promise<boolean> {
    const newer = await this.store.readStream(streamId, { fromRevision: revision + 1, maxCount: 1 });
    return newer.length === 0;
  }

  /** Events were appended to the stream, leaving it at `revision` with `state`: held for the next command. */
  appended(decider: AnyDecider, streamId: string, revision: number, state: unknown, lastEventId: string): void {
    const snapshotRevision = this.cache.get(streamId)?.snapshotRevision ?? -1;
    this.hold(decider, streamId, { revision, state, lastEventId, snapshotRevision });
  }

  private hold(decider: AnyDecider, streamId: string, loaded: LoadedState): void {
    this.cache.remember(streamId, loaded);
    this.snapshots.takeIfDue(decider, streamId, loaded);
  }
}

/** A stream's folded state as of one of its revisions. */
export interface LoadedState {
  /** Revision of the last event folded in (-1: the stream has no events). */
  revision: number;
  state: unknown;
  /** Id of the event at `revision` (null: none): what a snapshot of this state records. */
  lastEventId: string | null;
  /** Revision of the newest snapshot known to be stored (-1: none). */
  snapshotRevision: number;
}

/**
 * Streams whose state stays in memory after a command (the least recently used go first). A
 * stream not in it is loaded from its snapshot and newer events; a hot one (a workspace's, a job
 * being edited) stays. Each held state grows the heap's live set, and V8 lets the heap peak at a
 * multiple of that before collecting: resident memory follows (docs/performance.md).
 */
const STATE_CACHE_SIZE = 5_000;

/**
 * The states of the streams this process decided on or loaded recently, so that a hot stream is
 * decided on without reading it again.
 *
 * Invariant: a held `state` is exactly the fold of its stream's events up to `revision`, and it is
 * never mutated (folds are pure and build new states; a newer one replaces the entry). It may be
 * behind the store, when another process appended since, but it is never wrong about the revision
 * it names. Hence:
 * - a decision taken on a held state stands if its append is conditional on that revision: a
 *   conflict says it was behind (decide-and-append.ts);
 * - loading starts from it and reads only the newer events, never the stream from the start.
 */
export class StateCache {
  private readonly held = new Map<string, LoadedState>();

  constructor(private readonly size = STATE_CACHE_SIZE) {}

  get(streamId: string): LoadedState | undefined {
    return this.held.get(streamId);
  }

  /** Holds `loaded` as the stream's state, most recently used. */
  remember(streamId: string, loaded: LoadedState): void {
    this.held.delete(streamId);
    this.held.set(streamId, loaded);
    dropOldest(this.held, this.size);
  }
}

/**
 * A new snapshot is stored once a stream has this many events past its last one, or half as many
 * as its state has entries (`SnapshotShape.entries`) if that is more.
 */
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
   * Stores a snapshot of `loaded` when the stream is SNAPSHOT_EVERY events past its last one (or
   * half as many as its state has entries, if more), and records on `loaded` that it did. Never
   * waited for, and never throws.
   */
  takeIfDue(decider: AnyDecider, streamId: string, loaded: LoadedState): void {
    if (!this.snapshots || !decider.snapshot || loaded.lastEventId === null) return;
    const every = Math.max(SNAPSHOT_EVERY, (decider.snapshot.entries?.(loaded.state) ?? 0) / 2);
    if (loaded.revision - loaded.snapshotRevision < every) return;
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
