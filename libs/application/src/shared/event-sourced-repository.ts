import { Decider, DomainEvent } from '@app/domain';
import { Clock } from '../ports/clock.port';
import { EventStore, NewEvent } from '../ports/event-store.port';
import { ReadYourWrites } from '../ports/read-your-writes.port';
import { SnapshotStore } from '../ports/snapshot-store.port';
import { CommandContext } from './command-context';
import { Decided, decideAndAppend, PendingUnit } from './decide-and-append';
import { PerKeyBatches } from './per-key-batches';
import { waitUntilShown } from './read-your-writes';
import { RepositoryLogger, SnapshotPolicy, StateCache, StreamLoader } from './stream-loader';
import { AnyDecider, envelope, Erased, UnitOfWork } from './unit-of-work';

export { STALE_IF_MATCH } from './unit-of-work';
export type { DecideOptions, UnitOfWork } from './unit-of-work';
export type { RepositoryLogger } from './stream-loader';

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

export interface ExecuteOptions {
  /** Default true: answer only once the read models show the change. */
  waitForReadModels?: boolean;
  /** Optimistic concurrency from the client (If-Match): the stream revision it last saw. */
  expectedRevision?: number;
}

export interface Committed<Result> extends Decided<Result> {
  /** As Outcome.visible. */
  visible: boolean;
}

/**
 * Runs commands against event-sourced aggregates. The parts, each in its own file:
 * - stream-loader.ts: a stream's state from memory (StateCache) or its snapshot (SnapshotPolicy),
 *   plus its newer events;
 * - decide-and-append.ts: a batch decided on one view of the streams (BatchView), appended with
 *   the expected revisions, retried on conflict;
 * - per-key-batches.ts: units of work queued per key and handled in batches;
 * - read-your-writes.ts: the answer waits until the read models serving what it wrote show it;
 * - unit-of-work.ts: what the handlers and these parts share: the unit of work a handler is given
 *   and what it sees of the streams, and the envelope a decided event is stored in.
 */
export class EventSourcedRepository {
  private readonly loader: StreamLoader;
  private readonly batches: PerKeyBatches<PendingUnit>;

  constructor(
    store: EventStore,
    private readonly clock: Clock,
    private readonly readModels: ReadYourWrites,
    snapshots: SnapshotStore | null = null,
    logger: RepositoryLogger = { warn: () => undefined },
  ) {
    this.loader = new StreamLoader(store, new StateCache(), new SnapshotPolicy(store, snapshots, logger));
    const side = { store, loader: this.loader, clock };
    this.batches = new PerKeyBatches((batch) => decideAndAppend(batch, side));
  }

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
    const decided = await new Promise<Decided<unknown>>((resolve, reject) =>
      this.batches.add(queueKey, { work, context, resolve, reject }),
    );
    const visible = await waitUntilShown(this.readModels, decided, context, options.waitForReadModels !== false);
    return { ...(decided as Decided<Result>), visible };
  }

  /** Current state of a stream (for reads that need the aggregate, e.g. temporal reads). */
  async load<State>(decider: AnyDecider<State>, streamId: string): Promise<{ revision: number; state: State }> {
    const { revision, state } = await this.loader.load(decider, streamId);
    return { revision, state: state as State };
  }

  /**
   * Resolves once every unit of work queued so far has its outcome: written, refused or failed.
   * A shutdown waits for it before closing the event store, so that a command whose client went
   * away (its connection no longer holds the server's close) still ends on a store that is open.
   */
  settled(): Promise<void> {
    return this.batches.settled();
  }

  /** `event` as this command would store it (for specs that write a history by hand). */
  envelope(event: DomainEvent, context: CommandContext): NewEvent {
    return envelope(event, context, this.clock);
  }
}
