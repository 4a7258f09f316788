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
}

/** For states that are plain JSON values already (no Map, Set or class instances). */
export function jsonSnapshot<State>(version: number): SnapshotShape<State> {
  return { version, toSnapshot: (state) => state, fromSnapshot: (stored) => stored as State };
}

export function fold<State, Event extends DomainEvent>(
  decider: Pick<Decider<State, never, Event>, 'initialState' | 'evolve'>,
  events: readonly Event[],
  from: State = decider.initialState(),
): State {
  return events.reduce(decider.evolve, from);
}
