import { EventStore, RecordedEvent } from '../ports/event-store.port';
import { Snapshot, SnapshotStore } from '../ports/snapshot-store.port';
import { LoadedState, SNAPSHOT_EVERY, SnapshotPolicy, StateCache } from './stream-loader';
import { AnyDecider } from './unit-of-work';

const at = (revision: number): LoadedState => ({
  revision,
  state: { revision },
  lastEventId: `e${revision}`,
  snapshotRevision: -1,
});

describe('StateCache', () => {
  it('holds the newest state remembered for a stream', () => {
    const cache = new StateCache(10);

    cache.remember('s-1', at(0));
    cache.remember('s-1', at(3));

    expect(cache.get('s-1')).toEqual(at(3));
    expect(cache.get('s-2')).toBeUndefined();
  });

  it('lets the least recently remembered streams go first once full', () => {
    const cache = new StateCache(16);
    for (let i = 0; i < 16; i++) cache.remember(`s-${i}`, at(i));

    cache.remember('s-0', at(100)); // used again: the most recent now
    cache.remember('s-16', at(16));

    expect(cache.get('s-0')).toEqual(at(100));
    expect(cache.get('s-1')).toBeUndefined();
    expect(cache.get('s-16')).toEqual(at(16));
  });
});

const counter: AnyDecider<{ n: number }> = {
  initialState: () => ({ n: 0 }),
  evolve: (state) => ({ n: state.n + 1 }),
  snapshot: {
    version: 2,
    toSnapshot: (state) => ({ count: state.n }),
    fromSnapshot: (stored) => ({ n: (stored as { count: number }).count }),
  },
};

/** A stream whose event at revision r has the id `e<r>`. */
const stream: Pick<EventStore, 'readStream'> = {
  readStream: async (_streamId, options = {}) => [{ id: `e${options.fromRevision}` } as RecordedEvent],
};

function snapshotStore(stored: Snapshot[] = []) {
  const store: SnapshotStore & { stored: Snapshot[] } = {
    stored,
    get: async (streamId) => stored.find((s) => s.streamId === streamId) ?? null,
    put: async (snapshot) => void stored.push(snapshot),
    close: async () => undefined,
  };
  return store;
}

function policy(snapshots: SnapshotStore | null) {
  const warnings: string[] = [];
  const policy = new SnapshotPolicy(stream as EventStore, snapshots, { warn: (message) => warnings.push(message) });
  return { policy, warnings };
}

const snapshotAt = (revision: number, changes: Partial<Snapshot> = {}): Snapshot => ({
  streamId: 'counter-1',
  revision,
  eventId: `e${revision}`,
  version: 2,
  state: { count: 7 },
  ...changes,
});

const loaded = (revision: number, snapshotRevision: number): LoadedState => ({
  revision,
  state: { n: revision + 1 },
  lastEventId: `e${revision}`,
  snapshotRevision,
});

describe('SnapshotPolicy: restoring a stream from its snapshot', () => {
  it('uses a snapshot of the current shape taken on the present history', async () => {
    const { policy: restoring } = policy(snapshotStore([snapshotAt(6)]));

    expect(await restoring.restore(counter, 'counter-1')).toEqual({
      revision: 6,
      state: { n: 7 },
      lastEventId: 'e6',
      snapshotRevision: 6,
    });
  });

  it('ignores a snapshot of another shape, or of another history (the event it was taken at is not there)', async () => {
    for (const snapshot of [snapshotAt(6, { version: 1 }), snapshotAt(6, { eventId: 'e-of-an-older-backup' })]) {
      const { policy: restoring } = policy(snapshotStore([snapshot]));

      expect(await restoring.restore(counter, 'counter-1')).toBeUndefined();
    }
  });

  it('without a snapshot store, or for an aggregate without a snapshot shape, there is none', async () => {
    const { initialState, evolve } = counter;

    expect(await policy(null).policy.restore(counter, 'counter-1')).toBeUndefined();
    expect(
      await policy(snapshotStore([snapshotAt(6)])).policy.restore({ initialState, evolve }, 'counter-1'),
    ).toBeUndefined();
  });

  it('a snapshot store that cannot be read costs a warning and the fold, never the load', async () => {
    const broken = { ...snapshotStore(), get: async () => Promise.reject(new Error('corrupt')) };
    const { policy: restoring, warnings } = policy(broken);

    expect(await restoring.restore(counter, 'counter-1')).toBeUndefined();
    expect(warnings).toEqual(['Snapshot of counter-1 unreadable; folding its events instead']);
  });
});

describe('SnapshotPolicy: taking snapshots', () => {
  it('stores one once the stream is SNAPSHOT_EVERY events past the last, and records that it did', async () => {
    const snapshots = snapshotStore();
    const { policy: taking } = policy(snapshots);

    const notYet = loaded(SNAPSHOT_EVERY - 2, -1);
    taking.takeIfDue(counter, 'counter-1', notYet);
    const due = loaded(SNAPSHOT_EVERY - 1, -1);
    taking.takeIfDue(counter, 'counter-1', due);
    await Promise.resolve();

    expect(snapshots.stored).toEqual([
      {
        streamId: 'counter-1',
        revision: SNAPSHOT_EVERY - 1,
        eventId: `e${SNAPSHOT_EVERY - 1}`,
        version: 2,
        state: { count: SNAPSHOT_EVERY },
      },
    ]);
    expect([notYet.snapshotRevision, due.snapshotRevision]).toEqual([-1, SNAPSHOT_EVERY - 1]);
  });

  it('stores a state that grows with its stream once half as many events have passed as it has entries', async () => {
    const snapshots = snapshotStore();
    const { policy: taking } = policy(snapshots);
    const growing = { ...counter, snapshot: { ...counter.snapshot!, entries: (state: { n: number }) => state.n } };
    const entries = 8 * SNAPSHOT_EVERY;

    // A state of `entries` entries, a snapshot of it taken SNAPSHOT_EVERY events ago and more.
    const early = { ...loaded(entries + entries / 2 - 1, entries), state: { n: entries } };
    taking.takeIfDue(growing, 'counter-1', early);
    const due = { ...loaded(entries + entries / 2, entries), state: { n: entries } };
    taking.takeIfDue(growing, 'counter-1', due);
    await Promise.resolve();

    expect(snapshots.stored.map((s) => s.revision)).toEqual([entries + entries / 2]);
    expect([early.snapshotRevision, due.snapshotRevision]).toEqual([entries, entries + entries / 2]);
  });

  it('a snapshot that cannot be stored, or built, costs a warning, never the command', async () => {
    const full = { ...snapshotStore(), put: async () => Promise.reject(new Error('disk full')) };
    const { policy: taking, warnings } = policy(full);
    const unbuildable = {
      ...counter,
      snapshot: {
        ...counter.snapshot!,
        toSnapshot: () => {
          throw new Error('cyclic');
        },
      },
    };

    taking.takeIfDue(counter, 'counter-1', loaded(SNAPSHOT_EVERY, -1));
    taking.takeIfDue(unbuildable, 'counter-2', loaded(SNAPSHOT_EVERY, -1));
    await new Promise((r) => setImmediate(r));

    expect(warnings.sort()).toEqual([
      'Could not store a snapshot of counter-1',
      'Could not store a snapshot of counter-2',
    ]);
  });
});
