import { randomUUID } from 'node:crypto';
import { END, START as ESDB_START } from '@eventstore/db-client';
import { jobStream, jobTypeStream, projectJobsStream, projectStream } from '@app/domain';
import {
  EngineLogger,
  NewEvent,
  ProjectionEngine,
  Projector,
  RecordedEvent,
  WriteOp,
  WrongExpectedRevisionError,
} from '@app/application';
import { SqliteReadModelStore } from '@app/infrastructure/sqlite';
import { EventStoreDbEventStore } from './eventstoredb-event-store';
import { InMemoryEsdbClient } from './in-memory-esdb-client.spec-helper';

const event = (type: string, data: Record<string, unknown> = {}): NewEvent => ({
  id: randomUUID(),
  type,
  schemaVersion: 1,
  data,
  metadata: {
    workspaceId: 'ws_1',
    actor: { type: 'operator' },
    requestId: 'req_1',
    correlationId: 'req_1',
    causationId: 'cmd_1',
    recordedAt: 1_700_000_000_000,
  },
});

const quiet: EngineLogger = { error: () => undefined, warn: () => undefined };

/** Every position a read of `$all` started from is one the server accepts. */
function expectOnlyValidPositions(client: InMemoryEsdbClient) {
  const starts = new Set(client.log.map((r) => `${r.position.commit}/${r.position.prepare}`));
  for (const from of client.readAllFrom) {
    if (from === ESDB_START || from === END) continue;
    expect(starts.has(`${from.commit}/${from.prepare}`)).toBe(true);
  }
}

describe('EventStoreDbEventStore against the driver (an in-memory stand-in for the server)', () => {
  let client: InMemoryEsdbClient;
  let store: EventStoreDbEventStore;

  beforeEach(() => {
    client = new InMemoryEsdbClient();
    store = new EventStoreDbEventStore(client.asClient(), { pageSize: 4 });
  });
  afterEach(() => store.close());

  describe('reading the event at a position (a dead letter retried)', () => {
    it('reads back every event at its own position, starting the read where its record starts', async () => {
      await store.appendToStream('thing-a', [event('thing.one'), event('thing.two')], {
        expectedRevision: 'no_stream',
      });
      await store.appendToStream('thing-b', [event('thing.three')], { expectedRevision: 'no_stream' });
      const all = await store.readAll({ after: 0, maxCount: 10 });
      expect(all.map((e) => e.type)).toEqual(['thing.one', 'thing.two', 'thing.three']);
      for (const recorded of all) expect(await store.readAt(recorded.position)).toEqual(recorded);
      expectOnlyValidPositions(client);
    });

    it('answers undefined at the position of a record that is not the application’s', async () => {
      const { position } = await store.appendToStream('thing-a', [event('thing.one')], {
        expectedRevision: 'no_stream',
      });
      client.record('$stats-127.0.0.1:2113', '$statsCollected', {}, null);
      expect(await store.readAt(Number(client.log[client.log.length - 1].position.commit))).toBeUndefined();
      expect(await store.readAt(Number(client.log[0].position.commit))).toBeUndefined();
      expect(await store.readAt(position)).toMatchObject({ type: 'thing.one' });
    });

    it('lets the projection engine retry a dead letter: its event is read again from a valid position', async () => {
      let broken = true;
      const things: Projector = {
        name: 'things',
        collections: [{ name: 'things' }],
        project(recorded: RecordedEvent): WriteOp[] {
          if (recorded.type === 'thing.poison' && broken) throw new Error('cannot project it yet');
          return [
            { op: 'put', collection: 'things', id: recorded.id, workspaceId: 'ws_1', seq: recorded.position, doc: {} },
          ];
        },
      };
      const read = new SqliteReadModelStore(':memory:');
      const engine = new ProjectionEngine(store, read, [things], quiet);
      try {
        await engine.start();
        await store.appendToStream('thing-a', [event('thing.one')], { expectedRevision: 'no_stream' });
        const poison = event('thing.poison');
        const { position } = await store.appendToStream('thing-b', [poison], { expectedRevision: 'no_stream' });
        expect(await engine.waitFor(position)).toBe(true);
        const [letter] = await engine.listDeadLetters();
        expect(letter).toMatchObject({ eventId: poison.id, position });

        broken = false;
        const retried = await engine.retryDeadLetter({ projection: 'things', position });
        expect(retried.outcome).toBe('applied');
        expect(await read.get('things', poison.id)).not.toBeNull();
        expect(await engine.listDeadLetters()).toEqual([]);
        expectOnlyValidPositions(client);
      } finally {
        await engine.stop();
        await read.close();
      }
    });
  });

  describe('subscriptions', () => {
    /** Subscribes and waits for the first batch, so the subscription is running when it dies. */
    const running = async () => {
      const errors: unknown[] = [];
      let first: () => void;
      const delivered = new Promise<void>((resolve) => (first = resolve));
      store.subscribeToAll({ after: 0, onEvents: async () => first(), onError: (error) => errors.push(error) });
      await delivered;
      return { stream: client.subscriptions[client.subscriptions.length - 1], errors };
    };

    it('forgets a subscription that died (an error, the end of the stream, a close): nothing of it is left to stop', async () => {
      await store.appendToStream('thing-a', [event('thing.one')], { expectedRevision: 'no_stream' });
      const failed = await running();
      const ended = await running();
      const closed = await running();
      // What the driver's subscription emits: 'error' then 'close' when the call fails, 'end' then
      // 'close' when the server ends it, 'close' alone when it is destroyed.
      failed.stream.destroy(new Error('connection reset'));
      ended.stream.end();
      closed.stream.destroy();
      await new Promise((resolve) => setTimeout(resolve, 20));
      for (const { errors } of [failed, ended, closed]) expect(errors).toHaveLength(1);

      await store.close();
      // Each was let go once, as it died; close() found none of them still held.
      for (const { stream } of [failed, ended, closed]) expect(stream.unsubscribeCalls).toBe(1);
    });
  });

  describe('metadata', () => {
    it("writes correlation and causation under the store's own keys, $correlationId and $causationId", async () => {
      const written = event('thing.one');
      await store.appendToStream(
        'thing-a',
        [written, { ...event('thing.two'), metadata: { ...written.metadata, causationId: null } }],
        {
          expectedRevision: 'no_stream',
        },
      );
      const [first, second] = client.appends[0].events.map((e) => e.metadata as Record<string, unknown>);
      expect(first).toEqual({
        workspaceId: 'ws_1',
        actor: { type: 'operator' },
        requestId: 'req_1',
        $correlationId: 'req_1',
        $causationId: 'cmd_1',
        recordedAt: 1_700_000_000_000,
        schemaVersion: 1,
      });
      expect(first).not.toHaveProperty('correlationId');
      expect(first).not.toHaveProperty('causationId');
      // Nothing caused it: no $causationId at all (the server's projections read it as a string).
      expect(second).not.toHaveProperty('$causationId');
      expect(second.$correlationId).toBe('req_1');
    });

    it("reads the port metadata back from the store's keys and from correlationId / causationId", async () => {
      const written = event('thing.one');
      await store.appendToStream('thing-a', [written], { expectedRevision: 'no_stream' });
      const older = {
        workspaceId: 'ws_1',
        actor: { type: 'operator' },
        requestId: 'req_0',
        correlationId: 'req_0',
        causationId: null,
        recordedAt: 1,
        schemaVersion: 1,
      };
      client.record('thing-b', 'thing.one', {}, older);
      const [mine, theirs] = await store.readAll({ after: 0, maxCount: 10 });
      expect(mine.metadata).toEqual(written.metadata);
      expect(theirs.metadata).toEqual({
        workspaceId: 'ws_1',
        actor: { type: 'operator' },
        requestId: 'req_0',
        correlationId: 'req_0',
        causationId: null,
        recordedAt: 1,
      });
    });
  });

  describe('stream names (one $ce- category per kind)', () => {
    const names = () => [...new Set(client.log.map((r) => r.streamId).filter((n) => !n.startsWith('$')))];

    it('writes the two-word kinds under names whose first "-" ends the kind, and reads them back under the domain’s', async () => {
      const streams = [jobTypeStream('jt_1'), projectJobsStream('prj_1'), projectStream('prj_1'), jobStream('job_1')];
      for (const stream of streams)
        await store.appendToStream(stream, [event('x.made')], { expectedRevision: 'no_stream' });
      expect(names()).toEqual(['jobType-jt_1', 'projectJobs-prj_1', 'project-prj_1', 'job-job_1']);

      expect((await store.readAll({ after: 0, maxCount: 10 })).map((e) => e.streamId)).toEqual(streams);
      for (const stream of streams) expect((await store.readStream(stream)).map((e) => e.streamId)).toEqual([stream]);
      const [first] = await store.readAll({ after: 0, maxCount: 1 });
      expect((await store.readAt(first.position))?.streamId).toBe(streams[0]);

      const seen: string[] = [];
      let done: () => void;
      const all = new Promise<void>((resolve) => (done = resolve));
      const subscription = store.subscribeToAll({
        after: 0,
        onEvents: async (events) => {
          seen.push(...events.map((e) => e.streamId));
          if (seen.length >= streams.length) done();
        },
      });
      await all;
      await subscription.stop();
      expect(seen).toEqual(streams);
    });

    it('keeps appending to a stream an earlier release wrote under the domain’s name, and reads it', async () => {
      const stream = jobTypeStream('jt_old');
      client.record(stream, 'job_type.created', { id: 'jt_old' }, { correlationId: 'c', schemaVersion: 1 });
      expect((await store.readStream(stream)).map((e) => e.type)).toEqual(['job_type.created']);

      await store.appendToStream(stream, [event('job_type.updated')], { expectedRevision: 0 });
      expect(names()).toEqual([stream]);
      expect((await store.readStream(stream)).map((e) => e.revision)).toEqual([0, 1]);
      await expect(store.appendToStream(stream, [event('x')], { expectedRevision: 'no_stream' })).rejects.toMatchObject(
        {
          streamId: stream,
          actual: 1,
        },
      );
      await expect(store.appendToStream(stream, [event('x')], { expectedRevision: 0 })).rejects.toBeInstanceOf(
        WrongExpectedRevisionError,
      );
      await store.appendToStream(stream, [], { expectedRevision: 1 });
      await store.appendToStream(stream, [event('job_type.updated')], { expectedRevision: 'any' });
      expect(names()).toEqual([stream]);
    });

    it('refuses to write a name that would read back as another stream, and reads none', async () => {
      await expect(
        store.appendToStream('jobType-jt_1', [event('x')], { expectedRevision: 'no_stream' }),
      ).rejects.toThrow(/jobType-jt_1/);
      expect(await store.readStream('jobType-jt_1')).toEqual([]);
    });
  });

  describe('identity', () => {
    it('is one id kept in the store: made by the first to ask, read by every other client of the same store', async () => {
      const identity = await store.identity();
      expect(identity).toEqual({ kind: 'eventstoredb', id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      const beside = new EventStoreDbEventStore(client.asClient());
      expect(await beside.identity()).toEqual(identity);
      expect(client.log.filter((r) => r.streamId === 'storeIdentity-workspaceOperations')).toHaveLength(1);

      const elsewhere = new EventStoreDbEventStore(new InMemoryEsdbClient().asClient());
      expect((await elsewhere.identity()).id).not.toBe(identity.id);
    });

    it('agrees when two clients ask a new store at once', async () => {
      const [a, b] = await Promise.all([store.identity(), new EventStoreDbEventStore(client.asClient()).identity()]);
      expect(a).toEqual(b);
    });

    it('is not an event of the application: not in $all as the port reads it, nor its head, nor a stream to read', async () => {
      await store.identity();
      expect(await store.headPosition()).toBe(0);
      expect(await store.readAll({ after: 0, maxCount: 10 })).toEqual([]);
      expect(await store.readStream('storeIdentity-workspaceOperations')).toEqual([]);
      const { position } = await store.appendToStream('thing-a', [event('thing.one')], {
        expectedRevision: 'no_stream',
      });
      expect(await store.headPosition()).toBe(position);
    });
  });
});
