import { dropOldest } from './drop-oldest';

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
 * multiple of that before collecting: resident memory follows (docs/benchmarks.md).
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
