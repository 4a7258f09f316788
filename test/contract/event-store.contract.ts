import { randomUUID } from 'node:crypto';
import { EngineLogger, ProjectionEngine, Projector } from '@app/application';
import { EventStore, NewEvent, RecordedEvent, START, WrongExpectedRevisionError } from '@app/application/ports';
import { SqliteReadModelStore } from '@app/infrastructure/sqlite';
import { adapterUnderTest, OpenAdapter } from './adapter-under-test';

/**
 * The behaviour every EventStore adapter must show. Run by
 * sqlite-event-store.contract.spec.ts (always) and eventstoredb-event-store.contract.spec.ts
 * (when EVENTSTOREDB_URL is set). Stream names are random so suites can share a server.
 */
export function eventStoreContract(name: string, open: OpenAdapter<EventStore>) {
  describe(`EventStore contract: ${name}`, () => {
    const store = adapterUnderTest(open);

    const stream = () => `test-${randomUUID()}`;
    const event = (type = 'test.happened', data: unknown = { n: 1 }): NewEvent => ({
      id: randomUUID(),
      type,
      schemaVersion: 1,
      data,
      metadata: {
        workspaceId: 'ws_1',
        actor: { type: 'api_key', id: 'key_1', name: 'CI' },
        requestId: 'req_1',
        correlationId: 'req_1',
        causationId: null,
        recordedAt: 1_700_000_000_000,
      },
    });

    describe('readAllStored (the bytes the ledger hashes)', () => {
      it('gives the same events as readAll, in position order, with data and metadata as stored JSON bytes', async () => {
        const s = stream();
        const before = await store.headPosition();
        await store.appendToStream(s, [event('a.one', { n: 1, name: 'é' }), event('a.two', { list: [1, 2] })], {
          expectedRevision: 'no_stream',
        });
        const recorded = (await store.readAll({ after: before, maxCount: 1000 })).filter((e) => e.streamId === s);
        const stored = (await store.readAllStored({ after: before, maxCount: 1000 })).filter((e) => e.streamId === s);
        expect(stored.map((e) => [e.position, e.revision, e.id, e.type, e.schemaVersion])).toEqual(
          recorded.map((e) => [e.position, e.revision, e.id, e.type, e.schemaVersion]),
        );
        expect(stored.map((e) => JSON.parse(Buffer.from(e.data).toString('utf8')))).toEqual(
          recorded.map((e) => e.data),
        );
        expect(stored.every((e) => e.data instanceof Uint8Array && e.metadata instanceof Uint8Array)).toBe(true);
        expect(JSON.parse(Buffer.from(stored[0].metadata).toString('utf8'))).toEqual(expect.any(Object));
      });

      it('reads the same bytes every time, honouring after and maxCount', async () => {
        const s = stream();
        const before = await store.headPosition();
        await store.appendToStream(s, [event(), event(), event()], { expectedRevision: 'no_stream' });
        const first = await store.readAllStored({ after: before, maxCount: 2 });
        const again = await store.readAllStored({ after: before, maxCount: 2 });
        expect(first).toHaveLength(2);
        expect(again.map((e) => Buffer.from(e.data).toString('hex'))).toEqual(
          first.map((e) => Buffer.from(e.data).toString('hex')),
        );
        const rest = await store.readAllStored({ after: first[1].position, maxCount: 10 });
        expect(rest[0].position).toBeGreaterThan(first[1].position);
        expect(await store.readAllStored({ after: before, maxCount: 0 })).toEqual([]);
      });
    });

    describe('appendToStreams (several streams in one write)', () => {
      it('writes every stream, each with its own revisions, and reports one result per append in order', async () => {
        const [a, b] = [stream(), stream()];
        await store.appendToStream(a, [event()], { expectedRevision: 'no_stream' });
        const results = await store.appendToStreams([
          { streamId: a, events: [event('x.one')], expectedRevision: 0 },
          { streamId: b, events: [event('y.one'), event('y.two')], expectedRevision: 'no_stream' },
        ]);
        expect(results.map((r) => r.nextRevision)).toEqual([1, 1]);
        expect((await store.readStream(a)).map((e) => e.type)).toEqual(['test.happened', 'x.one']);
        expect((await store.readStream(b)).map((e) => e.revision)).toEqual([0, 1]);
        expect(results[1].position).toBe((await store.readStream(b))[1].position);
      });

      it('checks a stream given with no events as a condition, writing nothing to it', async () => {
        const [guard, target] = [stream(), stream()];
        await store.appendToStream(guard, [event()], { expectedRevision: 'no_stream' });
        await store.appendToStreams([
          { streamId: guard, events: [], expectedRevision: 0 },
          { streamId: target, events: [event()], expectedRevision: 'no_stream' },
        ]);
        expect(await store.readStream(guard)).toHaveLength(1);
        expect(await store.readStream(target)).toHaveLength(1);
      });

      it('rejects with WrongExpectedRevisionError naming the stream whose revision moved', async () => {
        const [a, b] = [stream(), stream()];
        await store.appendToStream(b, [event()], { expectedRevision: 'no_stream' });
        const failed = store.appendToStreams([
          { streamId: a, events: [event()], expectedRevision: 'no_stream' },
          { streamId: b, events: [event()], expectedRevision: 'no_stream' },
        ]);
        await expect(failed).rejects.toBeInstanceOf(WrongExpectedRevisionError);
        await expect(failed).rejects.toMatchObject({ streamId: b, expected: 'no_stream', actual: 0 });
        expect(await store.readStream(b)).toHaveLength(1);
      });

      it('is all or nothing where the store says it is atomic, a written prefix in order where not', async () => {
        const [first, second] = [stream(), stream()];
        await store.appendToStream(second, [event()], { expectedRevision: 'no_stream' });
        await expect(
          store.appendToStreams([
            { streamId: first, events: [event('first.one')], expectedRevision: 'no_stream' },
            { streamId: second, events: [event()], expectedRevision: 5 },
          ]),
        ).rejects.toBeInstanceOf(WrongExpectedRevisionError);
        expect(await store.readStream(first)).toHaveLength(store.atomicMultiStream ? 0 : 1);
      });

      it('a failed group leaves the groups written beside it untouched', async () => {
        const [ok, taken, other] = [stream(), stream(), stream()];
        await store.appendToStream(taken, [event()], { expectedRevision: 'no_stream' });
        const outcomes = await Promise.allSettled([
          store.appendToStreams([{ streamId: ok, events: [event()], expectedRevision: 'no_stream' }]),
          store.appendToStreams([
            { streamId: other, events: [event()], expectedRevision: 'no_stream' },
            { streamId: taken, events: [event()], expectedRevision: 'no_stream' },
          ]),
          store.appendToStream(ok + '-2', [event()], { expectedRevision: 'no_stream' }),
        ]);
        expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
        expect(await store.readStream(ok)).toHaveLength(1);
        expect(await store.readStream(other)).toHaveLength(store.atomicMultiStream ? 0 : 1);
      });

      it('an idempotent retry of a whole multi-stream append writes nothing again', async () => {
        const [a, b] = [stream(), stream()];
        const appends = [
          { streamId: a, events: [event()], expectedRevision: 'no_stream' as const },
          { streamId: b, events: [event(), event()], expectedRevision: 'no_stream' as const },
        ];
        const first = await store.appendToStreams(appends);
        const again = await store.appendToStreams(appends);
        expect(again.map((r) => r.nextRevision)).toEqual(first.map((r) => r.nextRevision));
        expect(await store.readStream(b)).toHaveLength(2);
      });
    });

    it('appends to a new stream and reads it back with revisions from 0 and the full envelope', async () => {
      const s = stream();
      const events = [event('a.one', { x: 1 }), event('a.two', { nested: { y: [1, 2] } })];
      const result = await store.appendToStream(s, events, { expectedRevision: 'no_stream' });
      expect(result.nextRevision).toBe(1);

      const read = await store.readStream(s);
      expect(read.map((e) => e.revision)).toEqual([0, 1]);
      expect(read.map((e) => e.id)).toEqual(events.map((e) => e.id));
      expect(read[0]).toMatchObject({ streamId: s, type: 'a.one', schemaVersion: 1, data: { x: 1 } });
      expect(read[1].data).toEqual({ nested: { y: [1, 2] } });
      expect(read[0].metadata).toEqual(events[0].metadata);
      expect(read[1].position).toBeGreaterThan(read[0].position);
      expect(result.position).toBe(read[1].position);
    });

    it('tells which store it is, the same at every call, without writing an event of its own to $all', async () => {
      const head = await store.headPosition();
      const identity = await store.identity();
      expect(identity.kind).toMatch(/^[a-z]+$/);
      expect(identity.id).not.toBe('');
      expect(await store.identity()).toEqual(identity);
      expect(await store.headPosition()).toBe(head);
    });

    it('reads an unknown stream as empty', async () => {
      expect(await store.readStream(stream())).toEqual([]);
    });

    it('reads a stream from a revision', async () => {
      const s = stream();
      await store.appendToStream(s, [event(), event(), event()], { expectedRevision: 'no_stream' });
      const tail = await store.readStream(s, { fromRevision: 1 });
      expect(tail.map((e) => e.revision)).toEqual([1, 2]);
    });

    it('enforces expected revisions: no_stream, exact revision and any', async () => {
      const s = stream();
      await store.appendToStream(s, [event()], { expectedRevision: 'no_stream' });
      await expect(store.appendToStream(s, [event()], { expectedRevision: 'no_stream' })).rejects.toBeInstanceOf(
        WrongExpectedRevisionError,
      );
      await expect(store.appendToStream(s, [event()], { expectedRevision: 5 })).rejects.toBeInstanceOf(
        WrongExpectedRevisionError,
      );
      await expect(store.appendToStream(stream(), [event()], { expectedRevision: 0 })).rejects.toBeInstanceOf(
        WrongExpectedRevisionError,
      );
      const exact = await store.appendToStream(s, [event()], { expectedRevision: 0 });
      expect(exact.nextRevision).toBe(1);
      const any = await store.appendToStream(s, [event()], { expectedRevision: 'any' });
      expect(any.nextRevision).toBe(2);
      expect((await store.readStream(s)).length).toBe(3);
    });

    it('lets exactly one of several concurrent appends at the same revision win, and the losers write nothing', async () => {
      const s = stream();
      await store.appendToStream(s, [event()], { expectedRevision: 'no_stream' });
      const attempts = await Promise.allSettled(
        Array.from({ length: 10 }, () => store.appendToStream(s, [event(), event()], { expectedRevision: 0 })),
      );
      expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
      for (const failed of attempts.filter((a) => a.status === 'rejected')) {
        expect((failed as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedRevisionError);
      }
      expect((await store.readStream(s)).map((e) => e.revision)).toEqual([0, 1, 2]);
    });

    it('treats re-appending the same event ids at the same revision as a no-op', async () => {
      const s = stream();
      const first = [event(), event()];
      const original = await store.appendToStream(s, first, { expectedRevision: 'no_stream' });
      const retried = await store.appendToStream(s, first, { expectedRevision: 'no_stream' });
      expect(retried.nextRevision).toBe(original.nextRevision);
      expect((await store.readStream(s)).length).toBe(2);
    });

    it('reads $all in position order, exclusive of the given position', async () => {
      const before = await store.headPosition();
      const s1 = stream();
      const s2 = stream();
      await store.appendToStream(s1, [event('x.a')], { expectedRevision: 'no_stream' });
      await store.appendToStream(s2, [event('x.b')], { expectedRevision: 'no_stream' });
      await store.appendToStream(s1, [event('x.c')], { expectedRevision: 0 });
      const mine = (await readAllFrom(store, before)).filter((e) => e.streamId === s1 || e.streamId === s2);
      expect(mine.map((e) => e.type)).toEqual(['x.a', 'x.b', 'x.c']);
      const afterFirst = (await readAllFrom(store, mine[0].position)).filter(
        (e) => e.streamId === s1 || e.streamId === s2,
      );
      expect(afterFirst.map((e) => e.type)).toEqual(['x.b', 'x.c']);
      expect(await store.headPosition()).toBeGreaterThanOrEqual(mine[2].position);
    });

    it('reads the event at each position it gave, and none at START', async () => {
      const [a, b] = [stream(), stream()];
      const before = await store.headPosition();
      await store.appendToStream(a, [event('at.one'), event('at.two')], { expectedRevision: 'no_stream' });
      await store.appendToStream(b, [event('at.three')], { expectedRevision: 'no_stream' });
      const mine = (await readAllFrom(store, before)).filter((e) => e.streamId === a || e.streamId === b);
      expect(mine.map((e) => e.type)).toEqual(['at.one', 'at.two', 'at.three']);
      for (const recorded of mine) expect(await store.readAt(recorded.position)).toEqual(recorded);
      expect(await store.readAt(START)).toBeUndefined();
    });

    it('lets the projections retry a parked event: it is read again at its position and applied', async () => {
      const poisonType = `poison.${randomUUID()}`;
      let broken = true;
      const parkedOnly: Projector = {
        name: 'poisoned',
        collections: [{ name: 'poisoned' }],
        handles: [poisonType],
        project: (recorded) => {
          if (broken) throw new Error('not yet');
          return [
            { op: 'put', collection: 'poisoned', id: recorded.id, workspaceId: null, seq: recorded.position, doc: {} },
          ];
        },
      };
      const quiet: EngineLogger = { error: () => undefined, warn: () => undefined };
      const read = new SqliteReadModelStore(':memory:');
      const engine = new ProjectionEngine(store, read, [parkedOnly], quiet);
      try {
        await engine.start();
        const poison = event(poisonType);
        const { position } = await store.appendToStream(stream(), [event(), poison], { expectedRevision: 'no_stream' });
        expect(await withTimeout(engine.waitFor(position, {}, 10_000), 11_000)).toBe(true);
        expect(await engine.listDeadLetters()).toMatchObject([{ eventId: poison.id, position }]);

        broken = false;
        expect(await engine.retryDeadLetter({ projection: 'poisoned', position })).toMatchObject({
          outcome: 'applied',
        });
        expect(await read.get('poisoned', poison.id)).not.toBeNull();
        expect(await engine.listDeadLetters()).toEqual([]);
      } finally {
        await engine.stop();
        await read.close();
      }
    });

    /**
     * The events of stream `s` a subscription from `after` delivers while `act` runs, until `enough`
     * of them have come (within 10 s); the subscription is stopped after.
     */
    const subscribedUntil = async (
      after: number,
      s: string,
      enough: (seen: RecordedEvent[]) => boolean,
      act: () => Promise<void>,
    ): Promise<RecordedEvent[]> => {
      const seen: RecordedEvent[] = [];
      let resolveDone: () => void;
      const done = new Promise<void>((r) => (resolveDone = r));
      const subscription = store.subscribeToAll({
        after,
        onEvents: async (events) => {
          seen.push(...events.filter((e) => e.streamId === s));
          if (enough(seen)) resolveDone();
        },
      });
      try {
        await act();
        await withTimeout(done, 10_000);
      } finally {
        await subscription.stop();
      }
      return seen;
    };

    it('subscribes to $all from a checkpoint: catches up, then receives live events in order', async () => {
      const s = stream();
      const before = await store.headPosition();
      await store.appendToStream(s, [event('sub.1'), event('sub.2')], { expectedRevision: 'no_stream' });
      const seen = await subscribedUntil(
        before,
        s,
        (events) => events.length >= 4,
        async () => {
          await store.appendToStream(s, [event('sub.3')], { expectedRevision: 1 });
          await store.appendToStream(s, [event('sub.4')], { expectedRevision: 2 });
        },
      );
      expect(seen.map((e) => e.type)).toEqual(['sub.1', 'sub.2', 'sub.3', 'sub.4']);
      const positions = seen.map((e) => e.position);
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    });

    it('delivers nothing at or before the checkpoint', async () => {
      const s = stream();
      await store.appendToStream(s, [event('old')], { expectedRevision: 'no_stream' });
      const checkpoint = await store.headPosition();
      const seen = await subscribedUntil(
        checkpoint,
        s,
        (events) => events.some((e) => e.type === 'new'),
        () => store.appendToStream(s, [event('new')], { expectedRevision: 0 }).then(() => undefined),
      );
      expect(seen.map((e) => e.type)).toEqual(['new']);
    });
  });
}

async function readAllFrom(store: EventStore, after: number): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  let from = after ?? START;
  for (;;) {
    const page = await store.readAll({ after: from, maxCount: 500 });
    if (page.length === 0) return out;
    out.push(...page);
    from = page[page.length - 1].position;
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
