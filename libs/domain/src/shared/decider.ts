/**
 * An aggregate is two pure functions over its own events (the emmett "decider"):
 * decide(command, state) -> events (or a thrown DomainError), evolve(state, event) -> state.
 * Nothing here knows about storage, HTTP or NestJS; replaying history is a fold of evolve.
 */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  readonly type: Type;
  readonly data: Data;
}

export interface Decider<State, Command, Event extends DomainEvent> {
  readonly initialState: () => State;
  readonly evolve: (state: State, event: Event) => State;
  readonly decide: (command: Command, state: State) => Event[];
  /** How the state is stored as a snapshot, so a long stream loads as snapshot + newer events. */
  readonly snapshot?: SnapshotShape<State>;
}

/**
 * A state's stored form. `version` names the shape: bump it whenever the state's shape changes,
 * and snapshots of another version are ignored (the state is folded from the events again, and a
 * new snapshot written). Snapshots are a cache of a fold, never a source of truth.
 */
export interface SnapshotShape<State> {
  readonly version: number;
  readonly toSnapshot: (state: State) => unknown;
  readonly fromSnapshot: (stored: unknown) => State;
  /**
   * How many entries a snapshot of `state` holds, for a state that grows with its stream (the
   * projects holding a workspace's slots). Storing a snapshot costs time in proportion to it, so
   * such a state is stored once at least half that many events have passed (a state that gains an
   * entry with every event: each time it has doubled since its last snapshot). Every event then
   * pays about the same for snapshots however large the state grows, and a load folds at most
   * that many events past its snapshot. Absent: a state of bounded size.
   */
  readonly entries?: (state: State) => number;
}

/** For states that are plain JSON values already (no Map, Set or class instances). */
export function jsonSnapshot<State>(version: number): SnapshotShape<State> {
  return { version, toSnapshot: (state) => state, fromSnapshot: (stored) => stored as State };
}

/**
 * The decider of an entity that is `absent` until its first event and whose state is plain JSON,
 * stored as snapshots of shape `snapshotVersion` (`jsonSnapshot`). `State` must have the
 * `{ status: 'absent' }` variant it starts from.
 */
export function absentFirstDecider<State extends { status: string }, Command, Event extends DomainEvent>(
  evolve: (state: State, event: Event) => State,
  decide: (command: Command, state: State) => Event[],
  snapshotVersion: { status: 'absent' } extends State ? number : never,
): Decider<State, Command, Event> {
  return {
    initialState: () => ({ status: 'absent' }) as State,
    evolve,
    decide,
    snapshot: jsonSnapshot<State>(snapshotVersion),
  };
}

export function fold<State, Event extends DomainEvent>(
  decider: Pick<Decider<State, never, Event>, 'initialState' | 'evolve'>,
  events: readonly Event[],
  from: State = decider.initialState(),
): State {
  return events.reduce(decider.evolve, from);
}
