import { SqliteReadModelStore } from '@app/infrastructure/sqlite';
import {
  AppendResult,
  EventStore,
  NewEvent,
  StreamAppend,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
} from '../ports/event-store.port';
import { DeadLetter, WriteOp } from '../ports/read-model.port';
import { EngineLogger, ProjectionEngine, UnknownDeadLetterError } from './projection-engine';
import { Projector } from './projector';

/**
 * An in-memory event store whose subscriptions can be made to fail: `failStarts` times at start
 * (subscribeToAll throws), then `failLater` times a moment after starting (onError).
 */
class FlakyEventStore implements EventStore {
  readonly events: RecordedEvent[] = [];
  failStarts = 0;
  failLater = 0;
  subscribeCalls = 0;
  private readonly wakers = new Set<() => void>();

  async appendToStream(streamId: string, events: NewEvent[]): Promise<AppendResult> {
    const revision = this.events.filter((e) => e.streamId === streamId).length;
    events.forEach((e, i) =>
      this.events.push({ ...e, streamId, revision: revision + i, position: this.events.length + 1 }),
    );
    this.wakers.forEach((wake) => wake());
    return { nextRevision: revision + events.length - 1, position: this.events.length };
  }
  readonly atomicMultiStream = true;
  async appendToStreams(appends: StreamAppend[]): Promise<AppendResult[]> {
    const results: AppendResult[] = [];
    for (const a of appends) results.push(await this.appendToStream(a.streamId, a.events));
    return results;
  }
  async readStream(streamId: string) {
    return this.events.filter((e) => e.streamId === streamId);
  }
  async readAll({ after, maxCount }: { after: number; maxCount: number }) {
    return this.events.filter((e) => e.position > after).slice(0, maxCount);
  }
  async readAllStored({ after, maxCount }: { after: number; maxCount: number }) {
    return this.events
      .filter((e) => e.position > after)
      .slice(0, maxCount)
      .map((e) => ({
        ...e,
        data: Buffer.from(JSON.stringify(e.data)),
        metadata: Buffer.from(JSON.stringify(e.metadata)),
      }));
  }
  async readAt(position: number) {
    return this.events.find((e) => e.position === position);
  }
  async headPosition() {
    return this.events.length;
  }
  async identity() {
    return { kind: 'memory', id: 'flaky' };
  }
  async close() {}

  subscribeToAll(options: SubscribeOptions): Subscription {
    this.subscribeCalls++;
    if (this.failStarts > 0) {
      this.failStarts--;
      throw new Error('store unreachable');
    }
    let stopped = false;
    let wake: () => void = () => undefined;
    const waker = () => wake();
    this.wakers.add(waker);
    const failing = this.failLater > 0;
    if (failing) this.failLater--;
    const running = (async () => {
      let checkpoint = options.after;
      if (failing) {
        await new Promise((r) => setTimeout(r, 1));
        throw new Error('connection reset');
      }
      while (!stopped) {
        const batch = this.events.filter((e) => e.position > checkpoint).slice(0, 3);
        if (batch.length === 0) {
          await new Promise<void>((resolve) => {
            wake = resolve;
            setTimeout(resolve, 20);
          });
          continue;
        }
        await options.onEvents(batch);
        checkpoint = batch[batch.length - 1].position;
      }
    })().catch((error) => {
      if (!stopped) options.onError?.(error);
    });
    return {
      stop: async () => {
        stopped = true;
        this.wakers.delete(waker);
        wake();
        await running;
      },
    };
  }
}

const newEvent = (n: number, data: Record<string, unknown>): NewEvent => ({
  id: `evt_${n}`,
  type: 'thing.made',
  schemaVersion: 1,
  data,
  metadata: {
    workspaceId: 'ws_1',
    actor: { type: 'operator' },
    requestId: null,
    correlationId: 'test',
    causationId: null,
    recordedAt: n,
  },
});

/** Throws on `poison` events while `broken` is set; counts its calls. */
function thingsProjector() {
  const state = { broken: true, calls: 0 };
  const projector: Projector = {
    name: 'things',
    collections: [{ name: 'things' }],
    handles: ['thing.made'],
    project(event: RecordedEvent): WriteOp[] {
      state.calls++;
      const data = event.data as { id: string; poison?: boolean };
      if (data.poison && state.broken) throw new Error(`cannot project ${data.id}`);
      return [
        {
          op: 'put',
          collection: 'things',
          id: data.id,
          workspaceId: 'ws_1',
          seq: event.position,
          doc: { id: data.id },
        },
      ];
    },
  };
  return { projector, state };
}

const tally: Projector = {
  name: 'tally',
  collections: [{ name: 'tally' }],
  project: (event) => [
    {
      op: 'put',
      collection: 'tally',
      id: event.id,
      workspaceId: 'ws_1',
      seq: event.position,
      doc: { type: event.type },
    },
  ],
};

const quiet: EngineLogger = { error: () => undefined, warn: () => undefined };

async function ids(read: SqliteReadModelStore, collection: string) {
  return (await read.find(collection, { workspaceId: 'ws_1', limit: 100 })).map((d) => d.id);
}

describe('ProjectionEngine failure policy', () => {
  let events: FlakyEventStore;
  let read: SqliteReadModelStore;
  let engine: ProjectionEngine;
  let things: ReturnType<typeof thingsProjector>;

  beforeEach(() => {
    events = new FlakyEventStore();
    read = new SqliteReadModelStore(':memory:');
    things = thingsProjector();
  });
  afterEach(async () => {
    await engine?.stop();
    await read.close();
  });

  const start = async (options: ConstructorParameters<typeof ProjectionEngine>[4] = {}, logger = quiet) => {
    engine = new ProjectionEngine(events, read, [things.projector, tally], logger, { now: () => 42, ...options });
    await engine.start();
  };
  const append = (stream: string, ...data: Record<string, unknown>[]) =>
    events.appendToStream(
      stream,
      data.map((d, i) => newEvent(events.events.length + i + 1, d)),
    );

  it('parks a poison event for its projection only; the rest of the batch and every other projection apply', async () => {
    await start();
    const parked: DeadLetter[] = [];
    engine.onParked((letter) => parked.push(letter));
    // One batch of three: the poison one sits in the middle.
    await append('thing-a', { id: 'a' });
    await append('thing-b', { id: 'b', poison: true });
    const { position } = await append('thing-c', { id: 'c' });
    expect(await engine.waitFor(position, { projections: ['tally'] })).toBe(true);

    expect(await ids(read, 'things')).toEqual(['a', 'c']);
    expect(await ids(read, 'tally')).toEqual(['evt_1', 'evt_2', 'evt_3']);
    const letter: DeadLetter = {
      projection: 'things',
      position: 2,
      eventId: 'evt_2',
      streamId: 'thing-b',
      eventType: 'thing.made',
      error: 'cannot project b',
      firstFailedAt: 42,
      lastFailedAt: 42,
      attempts: 1,
    };
    expect(await read.listDeadLetters()).toEqual([letter]);
    expect(parked).toEqual([letter]);
    expect((await read.getCheckpoints()).things).toBe(3);
    expect(engine.deadLetterCounts()).toEqual({ things: 1, tally: 0 });

    // Read-your-writes tells the truth per resource: the parked stream is not shown by `things`.
    expect(await engine.waitFor(position, { projections: ['things'], streamId: 'thing-b' })).toBe(false);
    expect(await engine.waitFor(position, { projections: ['tally'], streamId: 'thing-b' })).toBe(true);
    expect(await engine.waitFor(position, { projections: ['things'], streamId: 'thing-c' })).toBe(true);

    // Later events keep flowing.
    const later = await append('thing-d', { id: 'd' });
    expect(await engine.waitFor(later.position, { projections: ['things'], streamId: 'thing-d' })).toBe(true);
    expect(await ids(read, 'things')).toEqual(['a', 'c', 'd']);
  });

  it('runs a projector event by event only for a batch in which it threw', async () => {
    await start();
    await append('thing-a', { id: 'a' }, { id: 'b' }, { id: 'c' });
    expect(await engine.waitFor(3)).toBe(true);
    expect(things.state.calls).toBe(3);
    await append('thing-d', { id: 'd' }, { id: 'e', poison: true }, { id: 'f' });
    expect(await engine.waitFor(6)).toBe(true);
    // Three in the batch that threw at the second, then the three again one by one.
    expect(things.state.calls).toBe(3 + 2 + 3);
  });

  it('retries a dead letter (failing again, then applying) and skips one; both survive a restart until then', async () => {
    await start();
    await append('thing-x', { id: 'x', poison: true });
    await append('thing-y', { id: 'y', poison: true });
    expect(await engine.waitFor(2)).toBe(true);
    expect(engine.deadLetterCounts().things).toBe(2);

    // A restarted engine knows the dead letters it left.
    await engine.stop();
    await start({ now: () => 99 });
    expect(engine.deadLetterCounts().things).toBe(2);
    expect(await engine.waitFor(2, { projections: ['things'], streamId: 'thing-x' })).toBe(false);

    const failed = await engine.retryDeadLetter({ projection: 'things', position: 1 });
    expect(failed).toEqual({
      outcome: 'failed',
      deadLetter: expect.objectContaining({ attempts: 2, firstFailedAt: 42, lastFailedAt: 99 }),
    });
    expect((await engine.listDeadLetters('things'))[0]).toMatchObject({ position: 1, attempts: 2 });

    things.state.broken = false;
    const applied = await engine.retryDeadLetter({ projection: 'things', position: 1 });
    expect(applied.outcome).toBe('applied');
    expect(await ids(read, 'things')).toEqual(['x']);
    expect(await engine.waitFor(2, { projections: ['things'], streamId: 'thing-x' })).toBe(true);

    const skipped = await engine.skipDeadLetter({ projection: 'things', position: 2 });
    expect(skipped.eventId).toBe('evt_2');
    expect(await ids(read, 'things')).toEqual(['x']);
    expect(await read.listDeadLetters()).toEqual([]);
    expect(engine.deadLetterCounts()).toEqual({ things: 0, tally: 0 });

    await expect(engine.skipDeadLetter({ projection: 'things', position: 2 })).rejects.toBeInstanceOf(
      UnknownDeadLetterError,
    );
    await expect(engine.retryDeadLetter({ projection: 'nope', position: 1 })).rejects.toBeInstanceOf(
      UnknownDeadLetterError,
    );
  });

  it('restarts a subscription that cannot start or dies, with doubling delays up to the cap, reset by a batch', async () => {
    const delays: number[] = [];
    const logger: EngineLogger = {
      warn: () => undefined,
      error: (message: string) => void delays.push(Number(/in (\d+) ms/.exec(message)?.[1])),
    };
    events.failStarts = 3;
    events.failLater = 2;
    await append('thing-a', { id: 'a' });
    await start({ backoff: { minMs: 5, maxMs: 20 } }, logger);
    expect(await engine.waitFor(1, {}, 5_000)).toBe(true);
    expect(delays).toEqual([5, 10, 20, 20, 20]);
    expect(events.subscribeCalls).toBe(6);

    // Applied a batch: the next failure starts from the shortest delay again.
    events.failLater = 1;
    delays.length = 0;
    await engine.stop();
    await start({ backoff: { minMs: 5, maxMs: 20 } }, logger);
    await append('thing-b', { id: 'b' });
    expect(await engine.waitFor(2, {}, 5_000)).toBe(true);
    expect(delays).toEqual([5]);
  });

  it('answers false to a write waiting when the engine stops or the timeout passes', async () => {
    await start({ readYourWritesTimeoutMs: 50 });
    expect(await engine.waitFor(10)).toBe(false);
    const waiting = engine.waitFor(11, {}, 10_000);
    await engine.stop();
    expect(await waiting).toBe(false);
  });

  it('times every waiter out at its own deadline, whatever order they came in, and answers the others when reached', async () => {
    await start();
    const began = Date.now();
    const elapsed = (p: Promise<boolean>) => p.then((visible) => ({ visible, after: Date.now() - began }));
    const long = elapsed(engine.waitFor(100, {}, 600));
    const short = elapsed(engine.waitFor(100, {}, 80)); // later, but due first
    const reached = elapsed(engine.waitFor(1, {}, 600));
    await append('thing-a', { id: 'a' });

    expect(await reached).toMatchObject({ visible: true });
    const first = await short;
    expect(first.visible).toBe(false);
    expect(first.after).toBeGreaterThanOrEqual(75);
    expect(first.after).toBeLessThan(500);
    const last = await long;
    expect(last.visible).toBe(false);
    expect(last.after).toBeGreaterThanOrEqual(595);
  });
});
