import { NewEvent, StreamAppend } from '../ports/event-store.port';
import { AnyDecider } from './any-decider';
import { StreamLoader } from './stream-loader';

/** A stream as the batch being decided sees it. */
export interface TrackedStream {
  decider: AnyDecider;
  /** Revision it was loaded at: the expected revision of its append (or check). */
  loadedRevision: number;
  /** State and revision after the events decided so far. */
  state: unknown;
  revision: number;
  events: NewEvent[];
  /** Whether a unit that finished used it (a failed unit's streams are not conditions). */
  used: boolean;
  /**
   * Taken from memory without looking for newer events: true until the batch's append (which
   * checks its revision) or a read confirms it.
   */
  unverified: boolean;
  /** Where its append goes among the others (DecideOptions.order). */
  order: 'first' | 'last' | undefined;
}

/**
 * The streams of one attempt at a batch, as its units see them in turn: each stream is loaded once,
 * and each unit that finishes leaves what it decided here for the next one.
 *
 * Optimistic (the first attempt): a state held in memory is taken as it is, unread, and a stream
 * said to be new is not read at all. Both are checked: by the append (its expected revisions) or,
 * where nothing will be appended, by `confirm`. After a conflict every stream is read.
 */
export class BatchView {
  private readonly streams = new Map<string, TrackedStream>();

  constructor(
    private readonly loader: StreamLoader,
    readonly optimistic: boolean,
  ) {}

  /** The stream as the batch sees it, loaded on first use. */
  async track(decider: AnyDecider, streamId: string, newStream: boolean): Promise<TrackedStream> {
    const tracked = this.streams.get(streamId);
    if (tracked) return tracked;
    const held = this.optimistic ? this.loader.held(streamId) : undefined;
    const loaded =
      held ??
      (newStream && this.optimistic
        ? { revision: -1, state: decider.initialState() }
        : await this.loader.load(decider, streamId));
    // Loaded meanwhile by a concurrent load of the same unit: the first one stands.
    const raced = this.streams.get(streamId);
    if (raced) return raced;
    const fresh: TrackedStream = {
      decider,
      loadedRevision: loaded.revision,
      state: loaded.state,
      revision: loaded.revision,
      events: [],
      used: false,
      unverified: held !== undefined,
      order: undefined,
    };
    this.streams.set(streamId, fresh);
    return fresh;
  }

  /** A unit finished: what it decided becomes the batch's. Answers the streams it wrote to. */
  merge(own: ReadonlyMap<string, TrackedStream>): string[] {
    const wrote: string[] = [];
    for (const [streamId, mine] of own) {
      if (mine.events.length > 0) wrote.push(streamId);
      const shared = this.streams.get(streamId)!;
      shared.state = mine.state;
      shared.revision = mine.revision;
      shared.events.push(...mine.events);
      shared.used = true;
      shared.order ??= mine.order;
    }
    return wrote;
  }

  /**
   * The batch's write: every stream a finished unit looked at is appended to, or checked (no
   * events), at the revision it was loaded at, since its decisions hold only if none moved. In the
   * decided order on every store: needed where appends are made one by one, and it keeps the
   * events of one write in the same order on the embedded store too (the slot ledger projection
   * relies on a reservation preceding its project, a deletion its release).
   */
  appends(): StreamAppend[] {
    const appends: StreamAppend[] = [];
    for (const [streamId, tracked] of this.streams) {
      if (!tracked.used) continue;
      const expectedRevision = tracked.loadedRevision === -1 ? 'no_stream' : tracked.loadedRevision;
      appends.push({ streamId, events: tracked.events, expectedRevision });
    }
    const rank = (a: StreamAppend) => {
      const order = this.streams.get(a.streamId)!.order;
      return order === 'first' ? 0 : order === 'last' ? 2 : 1;
    };
    return appends.sort((a, b) => rank(a) - rank(b));
  }

  /**
   * Whether every stream taken from memory unread is still at that revision: one read of at most
   * one event per such stream. For answers no append will check.
   */
  async confirm(): Promise<boolean> {
    for (const [streamId, tracked] of this.streams) {
      if (!tracked.unverified) continue;
      if (!(await this.loader.isAt(streamId, tracked.loadedRevision))) return false;
      tracked.unverified = false;
    }
    return true;
  }

  /** The batch's write succeeded: each written stream's new state is held for the next command. */
  holdNewStates(): void {
    for (const [streamId, tracked] of this.streams) {
      if (tracked.events.length === 0) continue;
      const lastEventId = tracked.events[tracked.events.length - 1].id;
      this.loader.appended(tracked.decider, streamId, tracked.revision, tracked.state, lastEventId);
    }
  }
}
