import { Decider, DomainEvent, fold } from '@app/domain';
import { EventStore } from '../ports/event-store.port';

/**
 * An aggregate's state at an instant: the fold of every event of its stream recorded at or before
 * `asOf` (ms). Temporal reads are answered from the event store, never from the read models.
 */
export async function stateAsOf<State, Event extends DomainEvent>(
  events: EventStore,
  decider: Pick<Decider<State, never, Event>, 'initialState' | 'evolve'>,
  streamId: string,
  asOf: number,
): Promise<State> {
  const history = await events.readStream(streamId);
  const until = history.filter((e) => e.metadata.recordedAt <= asOf) as unknown as Event[];
  return fold(decider, until);
}
