import { Clock } from '../ports/clock.port';
import { EventStore, StreamAppend, WrongExpectedRevisionError } from '../ports/event-store.port';
import { CommandContext } from './command-context';
import { StreamLoader } from './stream-loader';
import { AnyDecider, BatchStreams, TrackedStream, Unit, UnitOfWork } from './unit-of-work';

/** A unit of work waiting to be handled, and how to answer whoever waits for it. */
export interface PendingUnit {
  /** Loads and decides through the unit only: it may run more than once (after a conflict). */
  work: (unit: UnitOfWork) => Promise<unknown>;
  context: CommandContext;
  resolve(decided: Decided<unknown>): void;
  reject(error: unknown): void;
}

/** What a unit of work came to, once its events are in the store. */
export interface Decided<Result> {
  result: Result;
  /** Store position of the write (0 when the unit wrote nothing). */
  position: number;
  /**
   * Streams this unit wrote to: what its answer waits for the read models of. Not the whole
   * batch's: each create of a batch of N would wait on all N streams (N² waits a batch).
   */
  written: string[];
}

export interface CommandSide {
  store: EventStore;
  loader: StreamLoader;
  clock: Clock;
}

/** Conflicts in a row after which the batch fails with the last one. */
const MAX_CONFLICT_RETRIES = 25;

/**
 * Handles a batch of units of work the way one command is handled: decide on the current state,
 * append with the expected revisions, decide again on a conflict. Answers every unit of the batch;
 * never rejects.
 *
 * 1. Decide. The units run in order on one view of the streams, each seeing what the ones before
 *    it decided. A unit that throws (a refused command, a store that could not be read for it)
 *    fails alone and leaves nothing behind.
 * 2. Append. Everything decided is written in one append, conditional on every stream a finished
 *    unit looked at still being at the revision it was loaded at.
 * 3. Retry. If another writer moved one of them, the whole batch is decided again on the newer
 *    events (only those are read: held states are never mutated, see StateCache in stream-loader.ts).
 *
 * The first attempt decides on the states held in memory without reading them, because the
 * append checks them. An answer that no append will check (nothing written, or a command refused)
 * must not rest on a state another process has moved past: those streams are read first, and the
 * batch decided again if one has moved.
 */
export async function decideAndAppend(batch: readonly PendingUnit[], { store, loader, clock }: CommandSide) {
  for (let attempt = 0; ; attempt++) {
    // 1. Decide.
    const view = new BatchView(loader, attempt === 0);
    const outcomes: ({ result: unknown; written: string[] } | { error: unknown })[] = [];
    for (const pending of batch) {
      const unit = new Unit(view, pending.context, clock);
      try {
        const result = await pending.work(unit);
        outcomes.push({ result, written: unit.finish() });
      } catch (error) {
        outcomes.push({ error });
      }
    }

    // An answer no append will check is confirmed first.
    const appends = view.appends();
    const writes = appends.some((a) => a.events.length > 0);
    const refused = outcomes.some((outcome) => 'error' in outcome);
    if (view.optimistic && (!writes || refused)) {
      let current: boolean;
      try {
        current = await view.confirm();
      } catch (error) {
        return rejectAll(batch, error); // the store could not be read: nothing is answered
      }
      if (!current) continue;
    }

    // 2. Append (3. Retry).
    let position = 0;
    if (writes) {
      try {
        const written = await store.appendToStreams(appends);
        position = Math.max(...written.map((w) => w.position));
        view.holdNewStates();
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_CONFLICT_RETRIES) {
          return rejectAll(batch, error);
        }
        // A first conflict is most often a held state that another process has moved: decided
        // again at once. A later one is a race with another writer: back off a little.
        if (attempt > 0) await new Promise((r) => setTimeout(r, Math.random() * 5 * attempt));
        continue;
      }
    }

    // Answer each unit: its result, or its own error.
    batch.forEach((pending, i) => {
      const outcome = outcomes[i];
      if ('error' in outcome) pending.reject(outcome.error);
      else {
        const { result, written } = outcome;
        pending.resolve({ result, position: written.length > 0 ? position : 0, written });
      }
    });
    return;
  }
}

function rejectAll(batch: readonly PendingUnit[], error: unknown): void {
  for (const pending of batch) pending.reject(error);
}

/**
 * The streams of one attempt at a batch, as its units see them in turn: each stream is loaded once,
 * and each unit that finishes leaves what it decided here for the next one.
 *
 * Optimistic (the first attempt): a state held in memory is taken as it is, unread, and a stream
 * said to be new is not read at all. Both are checked: by the append (its expected revisions) or,
 * where nothing will be appended, by `confirm`. After a conflict every stream is read.
 */
export class BatchView implements BatchStreams {
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
