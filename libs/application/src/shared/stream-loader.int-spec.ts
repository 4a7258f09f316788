import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OPERATOR, workspaceDecider, WorkspaceState, workspaceStream } from '@app/domain';
import { SqliteEventStore, SqliteSnapshotStore } from '@app/infrastructure/sqlite';
import { EventStore, NewEvent } from '../ports/event-store.port';
import { SnapshotStore } from '../ports/snapshot-store.port';
import { CommandContext } from './command-context';
import { EventSourcedRepository } from './event-sourced-repository';
import { LOAD_CHUNK, SNAPSHOT_EVERY, SnapshotPolicy, StateCache, StreamLoader } from './stream-loader';

const ws = 'ws_long';
const stream = workspaceStream(ws);
const context: CommandContext = { actor: OPERATOR, workspaceId: ws, requestId: 'req', causationId: 'req' };
const clock = { now: () => 1_700_000_000_000 };
const shown = { waitFor: async () => true };

const envelope = (type: string, data: unknown): NewEvent => ({
  id: randomUUID(),
  type,
  schemaVersion: 1,
  data,
  metadata: {
    workspaceId: ws,
    actor: OPERATOR,
    requestId: null,
    correlationId: 'seed',
    causationId: null,
    recordedAt: 1,
  },
});

/** A loader of this process: nothing held in memory yet. */
const loader = (store: EventStore, snapshots: SnapshotStore | null = null) =>
  new StreamLoader(store, new StateCache(), new SnapshotPolicy(store, snapshots, { warn: () => undefined }));

/** Records the stream reads made through it. */
function spied(store: EventStore) {
  const reads: { fromRevision: number; maxCount: number | undefined }[] = [];
  const spy: EventStore = {
    atomicMultiStream: store.atomicMultiStream,
    appendToStream: (...args) => store.appendToStream(...args),
    appendToStreams: (appends) => store.appendToStreams(appends),
    readStream: (streamId, options = {}) => {
      reads.push({ fromRevision: options.fromRevision ?? 0, maxCount: options.maxCount });
      return store.readStream(streamId, options);
    },
    readAll: (options) => store.readAll(options),
    readAllStored: (options) => store.readAllStored(options),
    readAt: (position) => store.readAt(position),
    subscribeToAll: (options) => store.subscribeToAll(options),
    headPosition: () => store.headPosition(),
    identity: () => store.identity(),
    close: () => store.close(),
  };
  return { store: spy, reads };
}

describe('StreamLoader: loading long streams', () => {
  let dir: string;
  let events: SqliteEventStore;
  let snapshots: SqliteSnapshotStore;
  const TOTAL = 1_201; // created + 1,200 slot events

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wos-repo-'));
    events = new SqliteEventStore(join(dir, 'events.db'), { writer: 'inline' });
    snapshots = new SqliteSnapshotStore(join(dir, 'snapshots.db'));
    const history = [
      envelope('workspace.created', { id: ws, name: 'Long', plan: 'enterprise', project_limit: null, created: 1 }),
    ];
    for (let i = 0; i < 600; i++) {
      history.push(envelope('workspace.project_slot_reserved', { workspace_id: ws, project_id: `p${i}` }));
      if (i % 2 === 0)
        history.push(envelope('workspace.project_slot_released', { workspace_id: ws, project_id: `p${i}` }));
    }
    history.push(
      ...Array.from({ length: TOTAL - history.length }, (_, i) =>
        envelope('workspace.project_slot_reserved', { workspace_id: ws, project_id: `q${i}` }),
      ),
    );
    await events.appendToStream(stream, history, { expectedRevision: 'no_stream' });
  });
  afterEach(async () => {
    await events.close();
    await snapshots.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The state folded from every event, without memory or snapshots. */
  const truth = async () => (await loader(events).load(workspaceDecider, stream)).state as WorkspaceState;
  const settleSnapshots = () => new Promise((r) => setTimeout(r, 20));

  it('reads a stream without a snapshot in chunks, and stores a snapshot of what it folded', async () => {
    const { store, reads } = spied(events);
    const { state, revision } = await loader(store, snapshots).load(workspaceDecider, stream);
    expect(revision).toBe(TOTAL - 1);
    expect(reads.every((r) => r.maxCount === LOAD_CHUNK)).toBe(true);
    expect(reads.map((r) => r.fromRevision)).toEqual([0, 500, 1000]);
    await settleSnapshots();
    expect(await snapshots.get(stream)).toMatchObject({
      revision: TOTAL - 1,
      version: workspaceDecider.snapshot!.version,
    });
    expect(state).toEqual(await truth());
    expect((state as WorkspaceState).projectSlots).toBe(TOTAL - 1 - 600);
  });

  it('a cold load after a restart reads the snapshot and only the events after it', async () => {
    await loader(events, snapshots).load(workspaceDecider, stream);
    await settleSnapshots();
    await events.appendToStream(
      stream,
      [envelope('workspace.project_slot_reserved', { workspace_id: ws, project_id: 'late' })],
      { expectedRevision: TOTAL - 1 },
    );

    const { store, reads } = spied(events);
    const { state, revision } = await loader(store, snapshots).load(workspaceDecider, stream);
    expect(revision).toBe(TOTAL);
    // The event the snapshot was taken at (to check it is of this history), then the tail.
    expect(reads.map((r) => r.fromRevision)).toEqual([TOTAL - 1, TOTAL]);
    expect(state).toEqual(await truth());
  });

  it('ignores a snapshot of another state shape, or of another history, and folds the events instead', async () => {
    const real = await truth();
    const wrong = { ...(workspaceDecider.snapshot!.toSnapshot(real) as object), slotHolders: ['p0'], projectSlots: 1 };
    for (const snapshot of [
      {
        streamId: stream,
        revision: TOTAL - 1,
        eventId: (await events.readStream(stream, { fromRevision: TOTAL - 1 }))[0].id,
        version: 1,
        state: wrong,
      },
      {
        streamId: stream,
        revision: TOTAL - 1,
        eventId: 'not-the-event-there',
        version: workspaceDecider.snapshot!.version,
        state: wrong,
      },
    ]) {
      await snapshots.put(snapshot);
      const { state } = await loader(events, snapshots).load(workspaceDecider, stream);
      expect(state).toEqual(real);
    }
  });

  it('loading a held stream again reads only the events after it', async () => {
    const { store, reads } = spied(events);
    const mine = loader(store);
    const held = await mine.load(workspaceDecider, stream);
    reads.length = 0;

    expect(await mine.load(workspaceDecider, stream)).toBe(held);
    await events.appendToStream(
      stream,
      [envelope('workspace.project_slot_reserved', { workspace_id: ws, project_id: 'late' })],
      { expectedRevision: TOTAL - 1 },
    );
    const { revision, state } = await mine.load(workspaceDecider, stream);

    expect(reads.map((r) => r.fromRevision)).toEqual([TOTAL, TOTAL]);
    expect(revision).toBe(TOTAL);
    expect(state).toEqual(await truth());
  });

  it('a conflict with another process reads only the newer events, never the stream from the start', async () => {
    const { store, reads } = spied(events);
    const mine = new EventSourcedRepository(store, clock, shown, snapshots);
    await mine.load(workspaceDecider, stream);
    // Another process appends meanwhile.
    await new EventSourcedRepository(events, clock, shown).execute(
      workspaceDecider,
      stream,
      { type: 'ReserveProjectSlot', projectId: 'theirs' },
      context,
    );
    reads.length = 0;
    const outcome = await mine.execute(
      workspaceDecider,
      stream,
      { type: 'ReserveProjectSlot', projectId: 'mine' },
      context,
    );
    expect(outcome.revision).toBe(TOTAL + 1);
    expect(reads.length).toBeGreaterThan(0);
    expect(Math.min(...reads.map((r) => r.fromRevision))).toBeGreaterThanOrEqual(TOTAL - 1);
    expect(((await truth()) as WorkspaceState).projectSlots).toBe(TOTAL - 1 - 600 + 2);
  });

  it('writes a new snapshot once the stream has grown SNAPSHOT_EVERY events past the last, or half as many as its state has entries', async () => {
    const repository = new EventSourcedRepository(events, clock, shown, snapshots);
    const { state } = await repository.load(workspaceDecider, stream);
    await settleSnapshots();
    const entries = workspaceDecider.snapshot!.entries!(state);
    expect(entries).toBeGreaterThan(2 * SNAPSHOT_EVERY);
    // Each reservation adds an entry: after i of them the state has entries + i, and a snapshot
    // is due once i reaches (entries + i) / 2, at i = entries.
    for (let i = 0; i < entries; i++) {
      await repository.execute(workspaceDecider, stream, { type: 'ReserveProjectSlot', projectId: `n${i}` }, context);
      if (i === SNAPSHOT_EVERY) {
        await settleSnapshots();
        expect((await snapshots.get(stream))?.revision).toBe(TOTAL - 1);
      }
    }
    await settleSnapshots();
    expect((await snapshots.get(stream))?.revision).toBe(TOTAL - 1 + entries);
  });
});
