import { setImmediate } from 'node:timers/promises';
import { DomainEvent } from '@app/domain';
import { EventStore } from '../ports/event-store.port';
import { AnyDecider } from './any-decider';
import { SnapshotPolicy } from './snapshot-policy';
import { LoadedState, StateCache } from './state-cache';

/**
 * Events read and folded per step when loading a stream, with the event loop free in between:
 * a long stream without a snapshot never holds other requests up for more than one step.
 */
export const LOAD_CHUNK = 500;

/**
 * Loads streams: the state held in memory, else the stored snapshot, else the initial state,
 * plus the events after it, read and folded LOAD_CHUNK at a time. What it loads or is told was
 * appended is held for the next command (state-cache.ts) and snapshotted when due
 * (snapshot-policy.ts). Events arrive upcast to their current shape: the store it is given is the
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
