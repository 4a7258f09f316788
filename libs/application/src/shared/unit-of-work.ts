import { Decider, DomainEvent, eventSchemas, preconditionFailed } from '@app/domain';
import { Clock } from '../ports/clock.port';
import { NewEvent } from '../ports/event-store.port';
import { CommandContext } from './command-context';
import { newEventId } from './time-ordered-ids';

/**
 * The command side loads, folds and stores the streams of every aggregate, so it erases their
 * state, command and event types. `evolve` takes them in parameter position, where `unknown` would
 * reject every concrete decider: `any` is the only type that erases them, and it is named once, here.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Erased = any;

/** What loading a stream needs of its aggregate's decider. */
export type AnyDecider<State = Erased> = Pick<Decider<State, Erased, Erased>, 'initialState' | 'evolve' | 'snapshot'>;

export const STALE_IF_MATCH = 'The resource has changed since the version given in If-Match';

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

/**
 * A decided event as it is stored: a new time-ordered id, its type's current schema version, and
 * the metadata of the command that caused it (docs/decisions.md, "Event envelope").
 */
export function envelope(event: DomainEvent, context: CommandContext, clock: Clock): NewEvent {
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
      recordedAt: clock.now(),
    },
  };
}

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
 * What a unit needs of its batch's streams (BatchView, decide-and-append.ts): a stream as the
 * units before it left it, and a place to leave what it decided.
 */
export interface BatchStreams {
  track(decider: AnyDecider, streamId: string, newStream: boolean): Promise<TrackedStream>;
  merge(own: ReadonlyMap<string, TrackedStream>): string[];
}

/**
 * One unit's view: the batch's streams plus what this unit decided, kept apart until the unit
 * finishes, so a unit that throws leaves nothing behind.
 */
export class Unit implements UnitOfWork {
  private readonly own = new Map<string, TrackedStream>();

  constructor(
    private readonly batch: BatchStreams,
    private readonly context: CommandContext,
    private readonly clock: Clock,
  ) {}

  async load<State>(decider: AnyDecider<State>, streamId: string) {
    const tracked = await this.view(decider, streamId, false);
    return { state: tracked.state as State, revision: tracked.revision };
  }

  async decide<State, Cmd>(
    decider: Decider<State, Cmd, Erased>,
    streamId: string,
    command: Cmd | ((state: State) => Cmd),
    options: DecideOptions = {},
  ) {
    const tracked = await this.view(decider, streamId, options.newStream === true);
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
    for (const event of events) tracked.events.push(envelope(event, this.context, this.clock));
    return { events, revision: tracked.revision, state: next };
  }

  /** The unit finished: its decisions become the batch's. Answers the streams it wrote to. */
  finish(): string[] {
    return this.batch.merge(this.own);
  }

  private async view(decider: AnyDecider, streamId: string, newStream: boolean): Promise<TrackedStream> {
    const mine = this.own.get(streamId);
    if (mine) return mine;
    const shared = await this.batch.track(decider, streamId, newStream);
    const copy = { ...shared, events: [] };
    this.own.set(streamId, copy);
    return copy;
  }
}
