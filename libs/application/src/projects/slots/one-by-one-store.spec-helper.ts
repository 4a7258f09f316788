import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore, SqliteReadModelStore } from '@app/infrastructure/sqlite';
import { Clock } from '../../ports/clock.port';
import { AppendResult, EventStore, StreamAppend, WrongExpectedRevisionError } from '../../ports/event-store.port';
import { ALL_PROJECTORS } from '../../projections/all-projectors';
import { ProjectionEngine } from '../../projections/projection-engine';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';

/** The embedded stores in a scratch directory, behind a OneByOneStore, with every projection running. */
export interface OneByOneWorld {
  store: OneByOneStore;
  read: SqliteReadModelStore;
  /** Stopped by close(): a spec that replaces the engine sets it here. */
  engine: ProjectionEngine;
  repository: EventSourcedRepository;
  close(): Promise<void>;
}

export async function openOneByOneWorld(clock: Clock): Promise<OneByOneWorld> {
  const dir = mkdtempSync(join(tmpdir(), 'wos-one-by-one-'));
  const store = new OneByOneStore(
    new SqliteEventStore(join(dir, 'events.db'), { writer: 'inline', pollIntervalMs: 20 }),
  );
  const read = new SqliteReadModelStore(join(dir, 'read-models.db'));
  const engine = new ProjectionEngine(store, read, ALL_PROJECTORS, { error: () => undefined, warn: () => undefined });
  await engine.start();
  const world: OneByOneWorld = {
    store,
    read,
    engine,
    repository: new EventSourcedRepository(store, clock, engine),
    async close() {
      await this.engine.stop();
      await store.close();
      await read.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return world;
}

/**
 * A store without multi-stream transactions, as EventStoreDB 24 is: appendToStreams appends one
 * stream after the other, and the first failure stops the rest. What a spec can make go wrong:
 * - `cutAfter(n)`: the next multi-stream write stops after n appends (the process died, or the
 *   connection went), leaving that prefix written;
 * - `conflictAt(n)`: the next multi-stream write's append n fails its expected revision, as if
 *   another writer had moved that stream, after the n appends before it were written;
 * - `failOn(streamId)`: every append to that stream fails (a store refusing it) until cleared.
 */
export class OneByOneStore implements EventStore {
  readonly atomicMultiStream = false;
  private cut: number | null = null;
  private conflict: number | null = null;
  private readonly failing = new Set<string>();
  constructor(private readonly inner: SqliteEventStore) {}
  cutAfter(n: number) {
    this.cut = n;
  }
  conflictAt(n: number) {
    this.conflict = n;
  }
  failOn(streamId: string, failing = true) {
    if (failing) this.failing.add(streamId);
    else this.failing.delete(streamId);
  }
  appendToStream(...args: Parameters<EventStore['appendToStream']>) {
    if (this.failing.has(args[0])) return Promise.reject(new Error(`store refused ${args[0]}`));
    return this.inner.appendToStream(...args);
  }
  async appendToStreams(appends: StreamAppend[]): Promise<AppendResult[]> {
    const [cut, conflict] = [this.cut, this.conflict];
    this.cut = null;
    this.conflict = null;
    const results: AppendResult[] = [];
    for (const [i, { streamId, events, expectedRevision }] of appends.entries()) {
      if (cut !== null && i === cut) throw new Error('connection lost part way');
      if (conflict !== null && i === conflict) throw new WrongExpectedRevisionError(streamId, expectedRevision, 0);
      results.push(await this.appendToStream(streamId, events, { expectedRevision }));
    }
    return results;
  }
  readStream(...args: Parameters<EventStore['readStream']>) {
    return this.inner.readStream(...args);
  }
  readAll(...args: Parameters<EventStore['readAll']>) {
    return this.inner.readAll(...args);
  }
  readAllStored(...args: Parameters<EventStore['readAllStored']>) {
    return this.inner.readAllStored(...args);
  }
  readAt(...args: Parameters<EventStore['readAt']>) {
    return this.inner.readAt(...args);
  }
  subscribeToAll(...args: Parameters<EventStore['subscribeToAll']>) {
    return this.inner.subscribeToAll(...args);
  }
  headPosition() {
    return this.inner.headPosition();
  }
  identity() {
    return this.inner.identity();
  }
  close() {
    return this.inner.close();
  }
}
