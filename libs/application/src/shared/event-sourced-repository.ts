import { setImmediate } from 'node:timers/promises';
import { Decider, DomainError, DomainEvent, preconditionFailed } from '@app/domain';
import { Clock } from '../ports/clock.port';
import { newEventId } from './time-ordered-ids';
import {
  EventStore,
  NewEvent,
  RecordedEvent,
  StreamAppend,
  WrongExpectedRevisionError,
} from '../ports/event-store.port';
import { ReadYourWrites } from '../ports/read-your-writes.port';
import { SnapshotStore } from '../ports/snapshot-store.port';
import { CommandContext } from './command-context';
import { dropOldest } from './drop-oldest';
import { servingProjections } from './read-scope';
import { eventSchemas } from '@app/domain';

export interface Outcome<State> {
  /** Domain events this command produced (empty when it changed nothing). */
  events: DomainEvent[];
  /** Stream revision right after this command's events: the resource's version (ETag). */
  revision: number;
  /** Store position to wait for before the read models show this command (0: nothing written). */
  position: number;
  state: State;
  /**
   * Whether the read models serving the resource are known to show this command: true when it
   * wrote nothing or the wait saw it; false when the wait timed out or one of them parked an event
   * of the stream (the write is committed all the same), or when the caller chose not to wait.
   */
  visible: boolean;
}

export const STALE_IF_MATCH = 'The resource has changed since the version given in If-Match';

export interface ExecuteOptions {
  /** Default true: answer only once the read models show the change. */
  waitForReadModels?: boolean;
  /** Optimistic concurrency from the client (If-Match): the stream revision it last saw. */
  expectedRevision?: number;
}

/**
 * The repository loads, folds and stores the streams of every aggregate, so it erases their state,
 * command and event types. `evolve` takes them in parameter position, where `unknown` would reject
 * every concrete decider: `any` is the only type that erases them, and it is named once, here.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Erased = any;
type AnyDecider<State> = Pick<Decider<State, Erased, Erased>, 'initialState' | 'evolve' | 'snapshot'>;

/**
 * What a unit of work sees and does: it loads streams and decides commands on them; everything it
 * decides is appended together, in one atomic write where the store has one, and only if no stream
 * it loaded has moved meanwhile (each is appended, or checked, at the revision it was loaded at).
 */
export interface UnitOfWork {
  load<State>(decider: AnyDecider<State>, streamId: string): Promise<{ state: State; revision: number }>;
  /**
   * Decides `command` against the stream's state as this unit sees it and records the events.
   * `expectedRevision` (If-Match) makes the decision a 412 unless the stream is at that revision.
   */
  decide<State, Cmd>(
    decider: Decider<State, Cmd, Erased>,
    streamId: string,
    command: Cmd | ((state: State) => Cmd),
    options?: DecideOptions,
  ): Promise<{ events: DomainEvent[]; revision: number; state: State }>;
}

export interface DecideOptions {
  /** If-Match: the decision is a 412 unless the stream is at this revision. */
  expectedRevision?: number;
  /**
   * Where this stream's append goes when the store cannot write several streams atomically
   * (EventStoreDB): `first` before the others, `last` after them. Chosen so that a failure part
   * way leaves only what the reconciler repairs: a slot is reserved before its project exists and
   * released after the project is gone, never the other way round.
   */
  order?: 'first' | 'last';
  /**
   * The stream's id was just generated at random for this command (not derived from anything a
   * client sent), so the stream has no events: it is decided from the initial state without
   * reading the store (a snapshot lookup and a stream read per create). The append's expected
   * revision `no_stream` still guarantees it; should it ever conflict, the retry reads the stream
   * like any other before deciding again.
   */
  newStream?: boolean;
}

export interface Committed<Result> {
  result: Result;
  /** Store position of the write (0 when the unit wrote nothing). */
  position: number;
  /**
   * Streams this unit wrote to: what its answer waits for the read models of. Not the whole
   * batch's: each create of a batch of N would wait on all N streams (N² waits a batch).
   */
  written: string[];
  /** As Outcome.visible. */
  visible: boolean;
}

/** A stream as the batch being decided sees it. */
interface Tracked {
  decider: AnyDecider<Erased>;
  /** Revision it was loaded at: the expected revision of its append (or check). */
  loadedRevision: number;
  /** State and revision after the events decided so far. */
  state: unknown;
  revision: number;
  events: NewEvent[];
  /** Whether a unit that finished used it (a failed unit's streams are not conditions). */
  used: boolean;
  /**
   * Taken from the state cache without looking for newer events: true until the batch's append
   * (which checks its revision) or a read confirms it.
   */
  unverified: boolean;
  order: 'first' | 'last' | undefined;
}

interface Queued {
  work: (unit: UnitOfWork) => Promise<unknown>;
  context: CommandContext;
  resolve(committed: Omit<Committed<unknown>, 'visible'>): void;
  reject(error: unknown): void;
}

interface Cached {
  revision: number;
  state: unknown;
  lastEventId: string | null;
  /** Revision of the newest snapshot known to be stored (-1: none). */
  snapshotRevision: number;
}

const MAX_CONFLICT_RETRIES = 25;
/**
 * Streams whose state stays in memory after a command (the least recently used go first). A
 * stream not in it is loaded from its snapshot and newer events, a few tens of µs; a hot one (a
 * workspace's, a job being edited) stays. 20,000 states grew the heap's live set by about 17 MB
 * in the minute of the benchmark's soak (one state per project created), and V8 lets the heap
 * peak at a multiple of that before collecting: resident memory followed.
 */
const STATE_CACHE_SIZE = 5_000;
/**
 * Events read and folded per step when loading a stream, with the event loop free in between:
 * a long stream without a snapshot never holds other requests up for more than one step.
 */
export const LOAD_CHUNK = 500;
/** A new snapshot is stored once a stream has this many events past its last one. */
export const SNAPSHOT_EVERY = 250;

export interface RepositoryLogger {
  warn(message: string, detail?: unknown): void;
}

/**
 * Runs commands against event-sourced aggregates: load (cached state, else the stored snapshot,
 * plus the newer events), decide, append with the expected revisions.
 *
 * Work is queued per key (usually the stream it changes most) and decided in batches: everything
 * that arrived while the previous append was in flight is decided in order, each unit seeing the
 * ones before it, and written in one append. Concurrent changes to one resource therefore all land
 * (none is lost to a conflict) at the cost of one write, and a hot stream such as a workspace's
 * slot count stays fast. A unit that throws (a DomainError) is left out of the batch alone. A
 * conflict with another process reads the streams' newer events (never their whole history: the
 * cached states are never mutated) and decides the batch again.
 */
export class EventSourcedRepository {
  private readonly queues = new Map<string, { waiting: Queued[]; running: boolean }>();
  /** The queues' drains under way: what `settled` waits for. */
  private readonly draining = new Set<Promise<void>>();
  private readonly cache = new Map<string, Cached>();

  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly readModels: ReadYourWrites,
    private readonly snapshots: SnapshotStore | null = null,
    private readonly logger: RepositoryLogger = { warn: () => undefined },
  ) {}

  /**
   * Decides and appends `command` on one stream, then (unless told otherwise) waits until the
   * read models show its events, so that a GET right after the answer sees the change. `command`
   * may be a value or a function of the current state. A DomainError rejects only this command.
   */
  async execute<State, Cmd>(
    decider: Decider<State, Cmd, Erased>,
    streamId: string,
    command: Cmd | ((state: State) => Cmd),
    context: CommandContext,
    options: ExecuteOptions = {},
  ): Promise<Outcome<State>> {
    const { result, position, visible } = await this.transact(
      streamId,
      context,
      (unit) => unit.decide(decider, streamId, command, { expectedRevision: options.expectedRevision }),
      { waitForReadModels: options.waitForReadModels },
    );
    const wrote = result.events.length > 0;
    return { ...result, position: wrote ? position : 0, visible: wrote ? visible : true };
  }

  /**
   * Runs `work` as one unit of work, queued behind (and batched with) the other units of `queueKey`.
   * `work` may run more than once (after a conflict): it must only load and decide through the unit.
   */
  async transact<Result>(
    queueKey: string,
    context: CommandContext,
    work: (unit: UnitOfWork) => Promise<Result>,
    options: { waitForReadModels?: boolean } = {},
  ): Promise<Committed<Result>> {
    const committed = await new Promise<Omit<Committed<unknown>, 'visible'>>((resolve, reject) => {
      let queue = this.queues.get(queueKey);
      if (!queue) {
        queue = { waiting: [], running: false };
        this.queues.set(queueKey, queue);
      }
      queue.waiting.push({ work, context, resolve, reject });
      if (!queue.running) this.startDrain(queueKey, queue);
    });
    if (committed.position === 0) return { ...(committed as Committed<Result>), visible: true };
    if (options.waitForReadModels === false) return { ...(committed as Committed<Result>), visible: false };
    const visible = await this.waitUntilShown(committed.position, committed.written, context);
    return { ...(committed as Committed<Result>), visible };
  }

  /**
   * Waits until the projections serving each written stream show the write (never the audit feed
   * and the like). Committed either way; when they do not, whoever answers must say so.
   */
  private async waitUntilShown(position: number, written: string[], context: CommandContext): Promise<boolean> {
    const shown = await Promise.all(
      written.map(async (streamId) => {
        const projections = servingProjections(streamId);
        const visible = await this.readModels.waitFor(position, { projections, streamId });
        if (!visible) context.consistency?.pending.push(...(projections ?? ['all']));
        return visible;
      }),
    );
    return shown.every(Boolean);
  }

  /** Current state of a stream (for reads that need the aggregate, e.g. temporal reads). */
  async load<State>(decider: AnyDecider<State>, streamId: string): Promise<{ revision: number; state: State }> {
    const loaded = await this.loadState(decider, streamId);
    return { revision: loaded.revision, state: loaded.state as State };
  }

  /**
   * Resolves once every unit of work queued so far has its outcome: written, refused or failed.
   * A shutdown waits for it before closing the event store, so that a command whose client went
   * away (its connection no longer holds the server's close) still ends on a store that is open.
   */
  async settled(): Promise<void> {
    while (this.draining.size > 0) await Promise.allSettled(this.draining);
  }

  private startDrain(queueKey: string, queue: { waiting: Queued[]; running: boolean }): void {
    const drain = this.drain(queueKey, queue);
    this.draining.add(drain);
    void drain.finally(() => this.draining.delete(drain));
  }

  private async drain(queueKey: string, queue: { waiting: Queued[]; running: boolean }): Promise<void> {
    queue.running = true;
    try {
      while (queue.waiting.length > 0) {
        // Decided after the event loop's poll phase, not in the middle of it: the commands of
        // every request that poll delivers join this batch. Under load a batch starts as the
        // previous append's answer comes in, often with most of a poll's requests still to be
        // read; deciding at once made more, smaller batches, and each batch has a fixed cost on
        // every thread (driver runs: POST 5,025/5,217 -> 5,541/5,683 req/s, CPU per create
        // 226/211 -> 201/196 us).
        await setImmediate();
        const batch = queue.waiting;
        queue.waiting = [];
        await this.runBatch(batch);
      }
    } finally {
      queue.running = false;
      if (queue.waiting.length === 0) this.queues.delete(queueKey);
      else this.startDrain(queueKey, queue);
    }
  }

  private async runBatch(batch: Queued[]): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const streams = new Map<string, Tracked>();
      const results: ({ ok: unknown; wrote: string[] } | { error: unknown })[] = [];
      // The first attempt decides on cached states as they are; after a conflict (or a cached
      // state found stale) nothing is assumed: every stream is read.
      const optimistic = attempt === 0;
      for (const queued of batch) {
        const unit = new Unit(this, streams, queued.context, optimistic);
        try {
          const result = await queued.work(unit);
          results.push({ ok: result, wrote: unit.commitTo(streams) });
        } catch (error) {
          // A refused command (or a store that could not be read for it) fails alone.
          results.push({ error });
        }
      }

      // Every stream a finished unit looked at is appended to, or checked: its decision holds
      // only if none of them moved since.
      const appends: StreamAppend[] = [];
      for (const [streamId, tracked] of streams) {
        if (!tracked.used) continue;
        appends.push({
          streamId,
          events: tracked.events,
          expectedRevision: tracked.loadedRevision === -1 ? 'no_stream' : tracked.loadedRevision,
        });
      }
      // In the decided order on every store: needed where appends are made one by one, and it keeps
      // the events of one write in the same order on the embedded store too (the slot ledger
      // projection relies on a reservation preceding its project, a deletion its release).
      const rank = (a: StreamAppend) => {
        const order = streams.get(a.streamId)!.order;
        return order === 'first' ? 0 : order === 'last' ? 2 : 1;
      };
      appends.sort((a, b) => rank(a) - rank(b));
      let position = 0;
      const writes = appends.some((a) => a.events.length > 0);
      // An answer that no append will check (nothing written, or a command refused) must not rest
      // on a state another process has moved past: read what the cache gave, and decide again if so.
      const refused = results.some((result) => 'error' in result);
      if (optimistic && (!writes || refused)) {
        let current: boolean;
        try {
          current = await this.confirm(streams);
        } catch (error) {
          batch.forEach((q) => q.reject(error)); // the store could not be read: nothing is answered
          return;
        }
        if (!current) continue;
      }
      if (writes) {
        try {
          const written = await this.store.appendToStreams(appends);
          position = Math.max(...written.map((w) => w.position));
          for (const [streamId, tracked] of streams) {
            if (tracked.events.length > 0) this.afterAppend(streamId, tracked);
          }
        } catch (error) {
          if (error instanceof WrongExpectedRevisionError && attempt < MAX_CONFLICT_RETRIES) {
            // The cached states are untouched (folds are pure): the retry reads only newer events.
            // A first conflict is most often a held state that another process has moved: decided
            // again at once. A later one is a race with another writer: back off a little.
            if (attempt > 0) await new Promise((r) => setTimeout(r, Math.random() * 5 * attempt));
            continue;
          }
          batch.forEach((q) => q.reject(error));
          return;
        }
      }
      batch.forEach((queued, i) => {
        const result = results[i];
        if ('error' in result) queued.reject(result.error);
        else
          queued.resolve({
            result: result.ok,
            position: result.wrote.length > 0 ? position : 0,
            written: result.wrote,
          });
      });
      return;
    }
  }

  /**
   * Loads a stream into the batch's view (once per batch). A new stream (see `newStream`) is not
   * read; nor, when `optimistic`, is a stream whose state is cached: the batch's append checks the
   * revision it was decided on, and `confirm` reads it where no append will.
   */
  async track(
    streams: Map<string, Tracked>,
    decider: AnyDecider<Erased>,
    streamId: string,
    assumeNew = false,
    optimistic = false,
  ): Promise<Tracked> {
    let tracked = streams.get(streamId);
    if (!tracked) {
      const cached = optimistic ? this.cache.get(streamId) : undefined;
      const loaded: Pick<Cached, 'revision' | 'state'> =
        cached ??
        (assumeNew && !this.cache.has(streamId)
          ? { revision: -1, state: decider.initialState() }
          : await this.loadState(decider, streamId));
      tracked = streams.get(streamId); // loaded meanwhile by a concurrent load of the same unit
      if (!tracked) {
        tracked = {
          decider,
          loadedRevision: loaded.revision,
          state: loaded.state,
          revision: loaded.revision,
          events: [],
          used: false,
          unverified: cached !== undefined,
          order: undefined,
        };
        streams.set(streamId, tracked);
      }
    }
    return tracked;
  }

  /**
   * Whether every stream the batch took from the cache unread is still at that revision. Asked
   * when no append will check them: the batch writes nothing (a no-op, a retried create), or a
   * command was refused on what the cache said. One read of at most one event per such stream.
   */
  private async confirm(streams: Map<string, Tracked>): Promise<boolean> {
    for (const [streamId, tracked] of streams) {
      if (!tracked.unverified) continue;
      const newer = await this.store.readStream(streamId, { fromRevision: tracked.loadedRevision + 1, maxCount: 1 });
      if (newer.length > 0) return false;
      tracked.unverified = false;
    }
    return true;
  }

  private async loadState(decider: AnyDecider<Erased>, streamId: string): Promise<Cached> {
    const from = this.cache.get(streamId) ?? (await this.fromSnapshot(decider, streamId));
    let state = from?.state ?? decider.initialState();
    let revision = from?.revision ?? -1;
    let lastEventId = from?.lastEventId ?? null;
    for (;;) {
      const chunk = await this.store.readStream(streamId, { fromRevision: revision + 1, maxCount: LOAD_CHUNK });
      if (chunk.length > 0) {
        state = foldRecorded(decider, chunk, state);
        const last = chunk[chunk.length - 1];
        revision = last.revision;
        lastEventId = last.id;
      }
      if (chunk.length < LOAD_CHUNK) break;
      await setImmediate(); // let other requests run between chunks
    }
    const cached: Cached = { revision, state, lastEventId, snapshotRevision: from?.snapshotRevision ?? -1 };
    if (from && revision === from.revision && this.cache.get(streamId) === from) return from;
    this.remember(streamId, cached);
    this.maybeSnapshot(decider, streamId, cached);
    return cached;
  }

  private async fromSnapshot(decider: AnyDecider<Erased>, streamId: string): Promise<Cached | undefined> {
    if (!this.snapshots || !decider.snapshot) return undefined;
    try {
      const snapshot = await this.snapshots.get(streamId);
      if (!snapshot || snapshot.version !== decider.snapshot.version) return undefined;
      // The snapshot must be of this history: the event it was taken at is still there.
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

  private afterAppend(streamId: string, tracked: Tracked) {
    const previous = this.cache.get(streamId);
    const lastEvent = tracked.events[tracked.events.length - 1];
    const cached: Cached = {
      revision: tracked.revision,
      state: tracked.state,
      lastEventId: lastEvent.id,
      snapshotRevision: previous?.snapshotRevision ?? -1,
    };
    this.remember(streamId, cached);
    this.maybeSnapshot(tracked.decider, streamId, cached);
  }

  private maybeSnapshot(decider: AnyDecider<Erased>, streamId: string, cached: Cached) {
    if (!this.snapshots || !decider.snapshot || cached.lastEventId === null) return;
    if (cached.revision - cached.snapshotRevision < SNAPSHOT_EVERY) return;
    cached.snapshotRevision = cached.revision;
    const { version, toSnapshot } = decider.snapshot;
    this.snapshots
      .put({
        streamId,
        revision: cached.revision,
        eventId: cached.lastEventId,
        version,
        state: toSnapshot(cached.state),
      })
      .catch((error) => this.logger.warn(`Could not store a snapshot of ${streamId}`, error));
  }

  private remember(streamId: string, cached: Cached) {
    this.cache.delete(streamId);
    this.cache.set(streamId, cached);
    dropOldest(this.cache, STATE_CACHE_SIZE);
  }

  envelope(event: DomainEvent, context: CommandContext): NewEvent {
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
        recordedAt: this.clock.now(),
      },
    };
  }
}

function foldRecorded(decider: AnyDecider<Erased>, events: RecordedEvent[], state: unknown): unknown {
  for (const event of events) state = decider.evolve(state, event as unknown as DomainEvent);
  return state;
}

/**
 * One unit's view: the batch's streams plus what this unit decided, kept apart until the unit
 * finishes, so a unit that throws leaves nothing behind.
 */
class Unit implements UnitOfWork {
  private readonly own = new Map<string, Tracked>();

  constructor(
    private readonly repository: EventSourcedRepository,
    private readonly batch: Map<string, Tracked>,
    private readonly context: CommandContext,
    /**
     * First attempt: cached states are taken as they are, and `newStream` at its word (the append
     * checks both). After a conflict, every stream is read.
     */
    private readonly optimistic: boolean,
  ) {}

  private async view(decider: AnyDecider<Erased>, streamId: string, newStream = false): Promise<Tracked> {
    const mine = this.own.get(streamId);
    if (mine) return mine;
    const shared = await this.repository.track(
      this.batch,
      decider,
      streamId,
      newStream && this.optimistic,
      this.optimistic,
    );
    const copy = { ...shared, events: [] as NewEvent[] };
    this.own.set(streamId, copy);
    return copy;
  }

  async load<State>(decider: AnyDecider<State>, streamId: string) {
    const tracked = await this.view(decider, streamId);
    return { state: tracked.state as State, revision: tracked.revision };
  }

  async decide<State, Cmd>(
    decider: Decider<State, Cmd, Erased>,
    streamId: string,
    command: Cmd | ((state: State) => Cmd),
    options: DecideOptions = {},
  ) {
    const tracked = await this.view(decider, streamId, options.newStream);
    tracked.order ??= options.order;
    // Checked against the revision this command would really act on, the batch included.
    if (options.expectedRevision !== undefined && options.expectedRevision !== tracked.revision) {
      throw preconditionFailed(STALE_IF_MATCH);
    }
    const state = tracked.state as State;
    const resolved = typeof command === 'function' ? (command as (s: State) => Cmd)(state) : command;
    const events = decider.decide(resolved, state);
    let next = state;
    for (const event of events) next = decider.evolve(next, event);
    tracked.state = next;
    tracked.revision += events.length;
    tracked.events.push(...events.map((e) => this.repository.envelope(e, this.context)));
    return { events, revision: tracked.revision, state: next };
  }

  /** The unit finished: its decisions become part of the batch. Returns the streams it wrote to. */
  commitTo(batch: Map<string, Tracked>): string[] {
    const wrote: string[] = [];
    for (const [streamId, mine] of this.own) {
      if (mine.events.length > 0) wrote.push(streamId);
      const shared = batch.get(streamId)!;
      shared.state = mine.state;
      shared.revision = mine.revision;
      shared.events.push(...mine.events);
      shared.used = true;
      shared.order ??= mine.order;
    }
    return wrote;
  }
}

export const isDomainError = (error: unknown): error is DomainError => error instanceof DomainError;
