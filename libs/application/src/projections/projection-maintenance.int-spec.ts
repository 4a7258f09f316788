import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteReadModelStore } from '@app/infrastructure/sqlite';
import { EventStore, RecordedEvent, SubscribeOptions } from '../ports/event-store.port';
import { ProjectionEngine, ProjectorOnlyError } from './projection-engine';
import { ProjectionMaintenance } from './projection-maintenance';
import { Projector } from './projector';
import { eventLoopTurnsDuring } from '../../../../test/support/event-loop-turns';

/**
 * An event store whose positions are 100 apart, as EventStoreDB's are log bytes: a lag counted in
 * positions would be a hundred times the events. Only what the engine and maintenance use.
 */
class SparseEventStore {
  readonly events: RecordedEvent[] = [];
  private readonly subscribers = new Set<SubscribeOptions & { after: number; busy: Promise<void> }>();

  add(count: number) {
    for (let i = 0; i < count; i++) {
      const n = this.events.length + 1;
      this.events.push({
        id: `evt_${n}`,
        streamId: `thing-${n}`,
        revision: 0,
        position: n * 100,
        type: 'thing.made',
        schemaVersion: 1,
        data: { id: `t${n}` },
        metadata: {
          workspaceId: 'ws',
          actor: { type: 'operator' },
          requestId: null,
          correlationId: 'c',
          causationId: null,
          recordedAt: n,
        },
      });
    }
    for (const subscriber of this.subscribers) this.deliver(subscriber);
  }

  private deliver(subscriber: SubscribeOptions & { after: number; busy: Promise<void> }) {
    subscriber.busy = subscriber.busy.then(async () => {
      const batch = this.events.filter((e) => e.position > subscriber.after);
      if (batch.length === 0 || !this.subscribers.has(subscriber)) return;
      subscriber.after = batch[batch.length - 1].position;
      await subscriber.onEvents(batch);
    });
  }

  async readAll({ after, maxCount }: { after: number; maxCount: number }) {
    return this.events.filter((e) => e.position > after).slice(0, maxCount);
  }

  async headPosition() {
    return this.events.length * 100;
  }

  async identity() {
    return { kind: 'memory', id: 'sparse' };
  }

  subscribeToAll(options: SubscribeOptions) {
    const subscriber = { ...options, busy: Promise.resolve() };
    this.subscribers.add(subscriber);
    this.deliver(subscriber);
    return {
      stop: async () => {
        this.subscribers.delete(subscriber);
        await subscriber.busy;
      },
    };
  }

  /** Resolves once every subscriber has applied everything appended so far. */
  async settled() {
    for (const subscriber of this.subscribers) await subscriber.busy;
  }
}

const things: Projector = {
  name: 'things',
  collections: [{ name: 'things' }],
  project: (event) => [
    {
      op: 'put',
      collection: 'things',
      id: (event.data as { id: string }).id,
      workspaceId: 'ws',
      seq: event.position,
      doc: { id: (event.data as { id: string }).id },
    },
  ],
};
const quiet = { error: () => undefined, warn: () => undefined };

describe('ProjectionMaintenance on the projector and on a replica', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wos-maintenance-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a replica reports the checkpoints the projector stored, the lag in events, and refuses to write', async () => {
    const events = new SparseEventStore();
    const store = events as unknown as EventStore;
    const projectorRead = new SqliteReadModelStore(join(dir, 'read-models.db'));
    const replicaRead = new SqliteReadModelStore(join(dir, 'read-models.db'));
    const engine = new ProjectionEngine(store, projectorRead, [things], quiet);
    const projector = new ProjectionMaintenance(engine, store, projectorRead, { role: 'projector' });
    // The replica's engine never starts: its checkpoints in memory stay 0.
    const idle = new ProjectionEngine(store, replicaRead, [things], quiet);
    const replica = new ProjectionMaintenance(idle, store, replicaRead, { role: 'replica' });
    await replicaRead.init(things.collections);

    events.add(30);
    await engine.start();
    await events.settled();
    const [onReplica] = await replica.status();
    expect(onReplica).toMatchObject({ name: 'things', checkpoint: 3000, head: 3000, lag: 0, lagCapped: false });
    expect(await projector.status()).toEqual([onReplica]);

    // Projector stopped, 25 more events: 25 behind (2,500 positions), capped where asked.
    await engine.stop();
    events.add(25);
    expect((await replica.status())[0]).toMatchObject({ checkpoint: 3000, head: 5500, lag: 25, lagCapped: false });
    expect((await replica.status({ lagCount: 10 }))[0]).toMatchObject({ lag: 10, lagCapped: true });
    expect((await replica.status({ lagCount: 25 }))[0]).toMatchObject({ lag: 25, lagCapped: false });

    // Nothing that writes the read models runs on the replica, nor on a projector whose engine is stopped.
    expect(() => replica.startRebuild('things')).toThrow(ProjectorOnlyError);
    await expect(replica.verify()).rejects.toThrow(/runs only on the projector/);
    await expect(idle.retryDeadLetter({ projection: 'things', position: 100 })).rejects.toThrow(ProjectorOnlyError);
    await expect(idle.skipDeadLetter({ projection: 'things', position: 100 })).rejects.toThrow(ProjectorOnlyError);
    expect(() => projector.startRebuild('things')).toThrow(ProjectorOnlyError);
    let live = 0;
    for await (const _ of replicaRead.scan('things')) live++;
    expect(live).toBe(30);
    expect((await replicaRead.getCheckpoints()).things).toBe(3000);

    await projectorRead.close();
    await replicaRead.close();
  });

  it('drops what an interrupted rebuild left behind before the projections start', async () => {
    const events = new SparseEventStore();
    const store = events as unknown as EventStore;
    const read = new SqliteReadModelStore(join(dir, 'read-models.db'));
    events.add(10);
    // A crash in the middle of a rebuild: a fresh copy half filled, with its checkpoint.
    await read.init([{ name: 'things' }, { name: 'things__next' }]);
    await read.apply(
      [{ op: 'put', collection: 'things__next', id: 't1', workspaceId: 'ws', seq: 100, doc: { id: 't1' } }],
      { things__next: 500 },
    );
    const engine = new ProjectionEngine(store, read, [things], quiet);
    const maintenance = new ProjectionMaintenance(engine, store, read);
    expect(await maintenance.cleanUpInterrupted()).toEqual(['things__next']);
    expect(await read.getCheckpoints()).not.toHaveProperty('things__next');
    await read.init([{ name: 'things__next' }]);
    let left = 0;
    for await (const _ of read.scan('things__next')) left++;
    expect(left).toBe(0);
    expect(await maintenance.cleanUpInterrupted()).toEqual([]);

    // And a rebuild on the running projector works from there.
    await engine.start();
    await events.settled();
    await maintenance.startRebuild('things').done;
    let rebuilt = 0;
    for await (const _ of read.scan('things')) rebuilt++;
    expect(rebuilt).toBe(10);
    await engine.stop();
    await read.close();
  });

  it('runs verifications asked for at once one after another, each finding the read models sound', async () => {
    const events = new SparseEventStore();
    const store = events as unknown as EventStore;
    // The service's writer: each batch is written on another thread, so the two really overlap.
    const read = new SqliteReadModelStore(join(dir, 'read-models.db'), { writer: 'worker' });
    const engine = new ProjectionEngine(store, read, [things], quiet);
    const maintenance = new ProjectionMaintenance(engine, store, read);
    events.add(5000);
    await engine.start();
    await events.settled();

    const reports = await Promise.all([maintenance.verify(), maintenance.verify(), maintenance.verify()]);
    for (const report of reports) {
      expect(report).toEqual({ position: 500_000, documents: 5000, differences: [], truncated: false });
    }
    await engine.stop();
    await read.close();
  });

  it('fails a rebuild whose writes fail while later ones are in flight, leaving the live projection, and rebuilds on the next try', async () => {
    const events = new SparseEventStore();
    const store = events as unknown as EventStore;
    const failing = new Set<number>();
    let shadowWrites = 0;
    // Batches 2 and 3 of the shadow fail a moment after they are handed over, as a full disk
    // would: the replay has handed over the next batches by then.
    class FailingStore extends SqliteReadModelStore {
      override apply(...args: Parameters<SqliteReadModelStore['apply']>) {
        if (!args[0].some((op) => op.collection === 'things__next')) return super.apply(...args);
        shadowWrites++;
        if (!failing.has(shadowWrites)) return super.apply(...args);
        return new Promise<void>((_, reject) => setTimeout(() => reject(new Error('disk full')), 20));
      }
    }
    const read = new FailingStore(join(dir, 'read-models.db'), { writer: 'worker' });
    const engine = new ProjectionEngine(store, read, [things], quiet);
    const maintenance = new ProjectionMaintenance(engine, store, read);
    events.add(12_000); // six batches
    await engine.start();
    await events.settled();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      failing.add(2).add(3);
      const { done } = maintenance.startRebuild('things');
      await expect(done).rejects.toThrow('disk full');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(unhandled).toEqual([]);
      const [status] = await maintenance.status();
      expect(status.rebuild).toMatchObject({ state: 'failed', error: 'disk full' });
      expect((await read.getCheckpoints()).things).toBe(1_200_000);
      let live = 0;
      for await (const _ of read.scan('things')) live++;
      expect(live).toBe(12_000);

      failing.clear();
      shadowWrites = 0;
      await maintenance.startRebuild('things').done;
      const report = await maintenance.verify();
      expect(report).toEqual({ position: 1_200_000, documents: 12_000, differences: [], truncated: false });
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await engine.stop();
      await read.close();
    }
  });

  it('lets the event loop turn between batches while it rebuilds and verifies, though every read and write is synchronous', async () => {
    // The API shares the event loop with a rebuild: with reads and writes that resolve at once
    // (the embedded stores' are synchronous), a loop of awaits alone would never let a request in.
    const events = new SparseEventStore();
    const store = events as unknown as EventStore;
    const read = new SqliteReadModelStore(join(dir, 'read-models.db')); // writes inline, on this thread
    const engine = new ProjectionEngine(store, read, [things], quiet);
    const maintenance = new ProjectionMaintenance(engine, store, read);
    events.add(10_000); // five batches of 2,000; ten pages of 1,000 in each collection compared
    await engine.start();
    await events.settled();

    // One turn at least per replayed batch (maintenance reads 2,000 events a batch), and per page of
    // each scan a verification compares (the store reads 1,000 documents a page): the live
    // collection's and the replayed one's.
    const batches = 10_000 / 2_000;
    const pagesPerScan = 10_000 / 1_000;
    expect(await eventLoopTurnsDuring(() => maintenance.startRebuild('things').done)).toBeGreaterThanOrEqual(batches);
    expect(await eventLoopTurnsDuring(() => maintenance.verify())).toBeGreaterThanOrEqual(batches + 2 * pagesPerScan);
    await engine.stop();
    await read.close();
  });
});
