import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NewEvent, RecordedEvent } from '@app/application/ports';
import type { Worker } from 'node:worker_threads';
import { SqliteEventStore, SUBSCRIPTION_BATCH } from './sqlite-event-store';
import type { StatementsByLimit } from './sqlite-limit';

/**
 * What only the embedded store does (the behaviour every adapter shares is in test/contract): a
 * subscription takes this process's appends as they were written, and still every event of
 * another process on the same file, in order.
 */
/** The reads of a subscription: its statement, prepared for its batch (`SUBSCRIPTION_BATCH`). */
function spyOnSubscriptionReads(store: SqliteEventStore) {
  const { stmt } = store as unknown as { stmt: { readAll: StatementsByLimit<{ all: () => unknown }> } };
  return jest.spyOn(stmt.readAll.get(SUBSCRIPTION_BATCH), 'all');
}

describe('SqliteEventStore subscriptions', () => {
  let dir: string;
  let file: string;
  const opened: SqliteEventStore[] = [];
  const open = (pollIntervalMs?: number, maxIdlePollIntervalMs?: number) => {
    const store = new SqliteEventStore(file, { pollIntervalMs, maxIdlePollIntervalMs });
    opened.push(store);
    return store;
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'es-local-'));
    file = join(dir, 'events.db');
  });
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const event = (n: number): NewEvent => ({
    id: randomUUID(),
    type: 'thing.happened',
    schemaVersion: 1,
    data: { n, text: `é "quoted" ${n}`, nothing: null },
    metadata: { workspaceId: 'ws_1', recordedAt: 1_700_000_000_000 + n } as NewEvent['metadata'],
  });

  const collect = (store: SqliteEventStore) => {
    const seen: RecordedEvent[] = [];
    const subscription = store.subscribeToAll({ after: 0, onEvents: async (events) => void seen.push(...events) });
    return { seen, subscription };
  };

  const until = async (condition: () => boolean) => {
    for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
    expect(condition()).toBe(true);
  };

  it("hands this process's appends to its subscriptions without reading them back, as the store would", async () => {
    const store = open(60_000); // woken by its own appends only: no poll can read them first
    const { seen, subscription } = collect(store);
    const reads = spyOnSubscriptionReads(store);
    reads.mockClear();

    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.appendToStream(`s-${i}`, [event(i)], { expectedRevision: 'no_stream' }),
      ),
    );
    await until(() => seen.length === 20);
    await subscription.stop();

    // The subscription's reads found nothing new: the events themselves were never read back...
    expect(reads.mock.results.map((call) => call.value)).toEqual(reads.mock.results.map(() => []));
    // ...and they equal what reading the store gives, field for field.
    expect(seen).toEqual(await store.readAll({ after: 0, maxCount: 100 }));
  });

  it('hands a batch with groups, conflicts, retries and a failed append to its subscriptions as the store has it', async () => {
    const store = open(60_000);
    const retried = [event(100), event(101)];
    await store.appendToStream('retried', retried, { expectedRevision: 'no_stream' });
    await store.appendToStream('taken', [event(102)], { expectedRevision: 'no_stream' });
    const { seen, subscription } = collect(store);
    await until(() => seen.length === 3);

    // One batch: everything below is asked for in the same turn.
    const outcomes = await Promise.allSettled([
      store.appendToStreams([
        { streamId: 'group-a', events: [event(1), event(2)], expectedRevision: 'no_stream' },
        { streamId: 'group-b', events: [], expectedRevision: 'no_stream' },
        { streamId: 'group-c', events: [event(3)], expectedRevision: 'no_stream' },
      ]),
      // In conflict on its second stream: nothing of it is written.
      store.appendToStreams([
        { streamId: 'lost', events: [event(4)], expectedRevision: 'no_stream' },
        { streamId: 'taken', events: [event(5)], expectedRevision: 'no_stream' },
      ]),
      // Already written: succeeds without writing again.
      store.appendToStream('retried', retried, { expectedRevision: 'no_stream' }),
      // Data JSON cannot hold: this append fails, alone.
      store.appendToStream('bad', [{ ...event(6), data: { n: BigInt(6) } }], { expectedRevision: 'no_stream' }),
      store.appendToStream('retried', [event(7)], { expectedRevision: 1 }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled']);
    expect(String((outcomes[3] as PromiseRejectedResult).reason)).toMatch(/BigInt/);

    const stored = await store.readAll({ after: 0, maxCount: 100 });
    expect(stored.map((e) => [e.streamId, e.revision])).toEqual([
      ['retried', 0],
      ['retried', 1],
      ['taken', 0],
      ['group-a', 0],
      ['group-a', 1],
      ['group-c', 0],
      ['retried', 2],
    ]);
    await until(() => seen.length === stored.length);
    await subscription.stop();
    expect(seen).toEqual(stored);
  });

  it("parses each of this process's appends once for all its subscriptions, each given an array of its own", async () => {
    const store = open(60_000);
    const first = collect(store);
    const second = collect(store);
    await store.appendToStream('s-1', [event(1), event(2)], { expectedRevision: 'no_stream' });
    await until(() => first.seen.length === 2 && second.seen.length === 2);
    await first.subscription.stop();
    await second.subscription.stop();

    // The same event objects (one parse of their data and metadata, whoever reads them)...
    expect(second.seen[0]).toBe(first.seen[0]);
    expect(second.seen[1]).toBe(first.seen[1]);
    // ...equal to what reading the store gives.
    expect(first.seen).toEqual(await store.readAll({ after: 0, maxCount: 10 }));
  });

  it('hands each subscription a batch array of its own, so that one changing it cannot change what another gets', async () => {
    const store = open(60_000);
    const received: number[] = [];
    const subscriptions = [1, 2].map(() =>
      store.subscribeToAll({
        after: 0,
        onEvents: async (events) => {
          received.push(events.length);
          events.length = 0; // a careless subscriber
        },
      }),
    );
    await store.appendToStream('s-1', [event(1)], { expectedRevision: 'no_stream' });
    await until(() => received.length === 2);
    await store.appendToStream('s-2', [event(2)], { expectedRevision: 'no_stream' });
    await until(() => received.length === 4);
    for (const subscription of subscriptions) await subscription.stop();
    // Each got every event, and each went on from where it was.
    expect(received).toEqual([1, 1, 1, 1]);
  });

  it("delivers every event exactly once and in order when another process's appends fall in between", async () => {
    const here = open();
    const there = open(); // another writer on the same file, as a replica beside the projector
    const { seen, subscription } = collect(here);

    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 200; i++) {
      const store = i % 3 === 0 ? there : here;
      writes.push(store.appendToStream(`s-${i}`, [event(i), event(i + 1000)], { expectedRevision: 'no_stream' }));
      if (i % 10 === 0) await Promise.all(writes.splice(0));
    }
    await Promise.all(writes);
    await until(() => seen.length === 400);
    await new Promise((r) => setTimeout(r, 50)); // nothing more arrives
    await subscription.stop();

    expect(seen.map((e) => e.position)).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
    expect(seen).toEqual(await here.readAll({ after: 0, maxCount: 1000 }));
  });

  it('reads an event whose metadata, parsed when first read, spreads, serialises and compares as a plain field', async () => {
    const store = open();
    const written = event(1);
    await store.appendToStream('s-1', [written], { expectedRevision: 'no_stream' });
    const [read] = await store.readAll({ after: 0, maxCount: 1 });
    const plain = { ...written, streamId: 's-1', revision: 0, position: 1 };

    expect(Object.keys(read)).toEqual(Object.keys(plain));
    expect(read).toEqual(plain);
    expect({ ...read }).toEqual(plain);
    expect(JSON.parse(JSON.stringify(read))).toEqual(plain);
    expect(structuredClone(read)).toEqual(plain);
    // Upcasting makes copies with a spread: the copy carries the metadata as a value.
    const copy = { ...read, schemaVersion: 2 };
    expect(Object.getOwnPropertyDescriptor(copy, 'metadata')?.value).toEqual(written.metadata);
    // It is parsed once, and can be replaced like any field.
    expect(read.metadata).toBe(read.metadata);
    read.metadata = { ...read.metadata, requestId: 'r' };
    expect(read.metadata.requestId).toBe('r');
  });

  it('keeps appending after its writer thread ended, on a new thread, losing nothing written before', async () => {
    const store = open();
    await store.appendToStream('s-1', [event(1)], { expectedRevision: 'no_stream' });
    // White box: the thread ends as one would that ran out of memory.
    const writer = (store as unknown as { writer: { thread: { thread: { worker: Worker } } } }).writer.thread;
    await writer.thread.worker.terminate();
    await store.appendToStream('s-2', [event(2)], { expectedRevision: 'no_stream' });
    await store.appendToStream('s-1', [event(3)], { expectedRevision: 0 });
    const all = await store.readAll({ after: 0, maxCount: 10 });
    expect(all.map((e) => [e.streamId, e.revision, e.position])).toEqual([
      ['s-1', 0, 1],
      ['s-2', 0, 2],
      ['s-1', 1, 3],
    ]);
  });

  it("looks less and less often while idle, and sees another process's append at once through the file watch", async () => {
    const here = open(10, 60_000);
    const there = open();
    const { seen, subscription } = collect(here);
    const reads = spyOnSubscriptionReads(here);

    // Idle for 1.5 s: looks at 10, 20, 40, ... ms apart, not 150 of them.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(reads.mock.calls.length).toBeLessThan(30);
    expect(reads.mock.calls.length).toBeGreaterThan(0); // the spy watches the statement it looks with
    // Now waiting up to seconds before its next look; the watch wakes it instead.
    const started = Date.now();
    await there.appendToStream('s-1', [event(1)], { expectedRevision: 'no_stream' });
    await until(() => seen.length === 1);
    expect(Date.now() - started).toBeLessThan(500);
    // Busy again, it looks every 10 ms: a second append is seen as soon.
    await there.appendToStream('s-2', [event(2)], { expectedRevision: 'no_stream' });
    await until(() => seen.length === 2);
    await subscription.stop();
    expect(seen.map((e) => e.streamId)).toEqual(['s-1', 's-2']);
  });
});

describe('SqliteEventStore identity', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'es-identity-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is made with the file and kept in it: every process that opens the file reads the same, another file has another', async () => {
    const file = join(dir, 'events.db');
    const [a, b] = [new SqliteEventStore(file), new SqliteEventStore(file, { writer: 'inline' })];
    const other = new SqliteEventStore(join(dir, 'other.db'));
    try {
      const identity = await a.identity();
      expect(identity).toEqual({ kind: 'sqlite', id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      expect(await b.identity()).toEqual(identity);
      expect((await other.identity()).id).not.toBe(identity.id);
      await a.close();
      const reopened = new SqliteEventStore(file);
      expect(await reopened.identity()).toEqual(identity);
      await reopened.close();
    } finally {
      await a.close();
      await b.close();
      await other.close();
    }
  });
});
