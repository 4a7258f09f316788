import { AnyBulkWriteOperation, Binary, Collection, Db, Document, MongoClient, UpdateResult } from 'mongodb';
import { LedgerConflictError, LedgerLeaf } from '@app/application/ports';
import { MongoConnection } from './mongodb-connection';
import { MongoLedgerStore } from './mongodb-ledger-store';

/** Collections typed as the driver's, recording the calls the store makes; a deployment without transactions. */
function storeOver(state: Document | null, leaf: Document | null = null, source: Document | null = null) {
  const calls: { collection: string; op: string; args: unknown[] }[] = [];
  const collection = (name: string) =>
    ({
      createIndex: async () => 'ok',
      findOne: async (...args: unknown[]) => {
        calls.push({ collection: name, op: 'findOne', args });
        return name === 'ledger_state' ? state : name === 'ledger_source' ? source : leaf;
      },
      replaceOne: async (...args: unknown[]) => {
        calls.push({ collection: name, op: 'replaceOne', args });
        return { matchedCount: 0, upsertedCount: 1 } as UpdateResult;
      },
      bulkWrite: async (...args: unknown[]) => {
        calls.push({ collection: name, op: 'bulkWrite', args });
        return {};
      },
      updateOne: async (...args: unknown[]) => {
        calls.push({ collection: name, op: 'updateOne', args });
        return { matchedCount: 1, upsertedCount: 0 } as UpdateResult;
      },
    }) as unknown as Collection<Document>;
  const db = {
    collection,
    admin: () => ({ command: async () => ({ isWritablePrimary: true }) }),
  } as unknown as Db;
  const client = { db: () => db, close: async () => undefined };
  return { calls, connection: MongoConnection.over(client as unknown as MongoClient, 'ops') };
}

const hash = (n: number) => Buffer.alloc(32, n);
const leaves = (from: number, count: number): LedgerLeaf[] =>
  Array.from({ length: count }, (_, i) => ({
    index: from + i,
    position: 10 + from + i,
    eventId: `e${i}`,
    hash: hash(i),
  }));

describe('MongoLedgerStore', () => {
  it('upserts each leaf by its index (a retry rewrites the same documents), then moves the state from the size it expects', async () => {
    const { calls, connection } = storeOver({ _id: 'state', size: 2, checkpoint: 11, frontier: [] });
    const store = await MongoLedgerStore.connect(connection);
    await store.append(leaves(2, 2), { size: 4, checkpoint: 13, frontier: [hash(9)] });
    const bulk = calls.find((c) => c.op === 'bulkWrite')!;
    expect(bulk.collection).toBe('ledger_leaves');
    const ops = bulk.args[0] as AnyBulkWriteOperation<Document>[];
    expect(ops[0]).toEqual({
      replaceOne: {
        filter: { _id: 2 },
        replacement: { position: 12, event_id: 'e0', hash: new Binary(hash(0)) },
        upsert: true,
      },
    });
    const update = calls.find((c) => c.op === 'updateOne')!;
    expect(update.collection).toBe('ledger_state');
    expect(update.args[0]).toEqual({ _id: 'state', size: 2 });
    expect(update.args[1]).toEqual({ $set: { size: 4, checkpoint: 13, frontier: [hash(9).toString('hex')] } });
    expect(calls.indexOf(bulk)).toBeLessThan(calls.indexOf(update));
  });

  it('refuses an append that does not continue the stored size, writing nothing', async () => {
    const { calls, connection } = storeOver({ _id: 'state', size: 5, checkpoint: 11, frontier: [] });
    const store = await MongoLedgerStore.connect(connection);
    await expect(store.append(leaves(3, 1), { size: 4, checkpoint: 13, frontier: [] })).rejects.toBeInstanceOf(
      LedgerConflictError,
    );
    expect(calls.filter((c) => c.op !== 'findOne')).toEqual([]);
  });

  it('does not show a leaf past the stored size (left by an append a crash cut short)', async () => {
    const beyond = { _id: 7, position: 17, event_id: 'e7', hash: new Binary(hash(7)) };
    const { connection } = storeOver({ _id: 'state', size: 7, checkpoint: 16, frontier: [] }, beyond);
    const store = await MongoLedgerStore.connect(connection);
    expect(await store.leafOfEvent('e7')).toBeUndefined();
    const within = storeOver({ _id: 'state', size: 8, checkpoint: 17, frontier: [] }, beyond);
    expect(await (await MongoLedgerStore.connect(within.connection)).leafOfEvent('e7')).toEqual({
      index: 7,
      position: 17,
      eventId: 'e7',
      hash: hash(7),
    });
  });

  it('records the event store the log is built from in one document of ledger_source, and reads it back', async () => {
    const { calls, connection } = storeOver(null);
    const store = await MongoLedgerStore.connect(connection);
    expect(await store.source()).toBeNull();
    expect(calls.at(-1)).toEqual({ collection: 'ledger_source', op: 'findOne', args: [{ _id: 'event_store' }] });
    await store.stampSource({ kind: 'eventstoredb', id: 'esdb-1' });
    expect(calls.at(-1)).toEqual({
      collection: 'ledger_source',
      op: 'replaceOne',
      args: [{ _id: 'event_store' }, { kind: 'eventstoredb', id: 'esdb-1' }, { upsert: true }],
    });
    const stamped = storeOver(null, null, { _id: 'event_store', kind: 'eventstoredb', id: 'esdb-1' });
    expect(await (await MongoLedgerStore.connect(stamped.connection)).source()).toEqual({
      kind: 'eventstoredb',
      id: 'esdb-1',
    });
  });
});
