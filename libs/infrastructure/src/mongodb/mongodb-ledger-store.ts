import { Binary, Collection } from 'mongodb';
import {
  EventStoreIdentity,
  LedgerConflictError,
  LedgerLeaf,
  LedgerState,
  LedgerStore,
  SignedHead,
  StoredHead,
} from '@app/application/ports';
import { MongoConnection } from './mongodb-connection';
import { inTransaction } from './transactions';

interface LeafDoc {
  _id: number;
  position: number;
  event_id: string;
  hash: Binary;
}

interface StateDoc {
  _id: 'state';
  size: number;
  checkpoint: number;
  frontier: string[];
}

interface HeadDoc extends SignedHead {
  _id: number;
}

interface SourceDoc extends EventStoreIdentity {
  _id: 'event_store';
}

interface CounterDoc {
  _id: 'heads';
  seq: number;
}

/**
 * The ledger in MongoDB, beside the read models: `ledger_leaves` (one document per leaf, `_id` its
 * index), `ledger_state` (one document), `ledger_source` (the event store it was built from) and `ledger_heads` (`_id` a sequence drawn from
 * `ledger_counters`). An append writes the leaves (upserts by index, so a retry after a crash
 * rewrites the same documents) and then the state, guarded by the size it expects, in one
 * transaction where the deployment has them: without one a crash between the two leaves leaves
 * past the stored size, which the next append overwrites and no read reaches.
 */
export class MongoLedgerStore implements LedgerStore {
  private readonly leaves: Collection<LeafDoc>;
  private readonly stateDocs: Collection<StateDoc>;
  private readonly heads: Collection<HeadDoc>;
  private readonly counters: Collection<CounterDoc>;
  private readonly sources: Collection<SourceDoc>;

  private constructor(
    private readonly connection: MongoConnection,
    private readonly transactions: boolean,
  ) {
    const db = connection.db();
    this.leaves = db.collection<LeafDoc>('ledger_leaves');
    this.stateDocs = db.collection<StateDoc>('ledger_state');
    this.heads = db.collection<HeadDoc>('ledger_heads');
    this.counters = db.collection<CounterDoc>('ledger_counters');
    this.sources = db.collection<SourceDoc>('ledger_source');
  }

  /** The store closes the connection (its handle) with itself. */
  static async connect(connection: MongoConnection): Promise<MongoLedgerStore> {
    const store = new MongoLedgerStore(connection, await connection.transactions());
    await store.leaves.createIndex({ position: 1 });
    await store.leaves.createIndex({ event_id: 1 });
    return store;
  }

  async state(): Promise<LedgerState> {
    const doc = await this.stateDocs.findOne({ _id: 'state' });
    if (!doc) return { size: 0, checkpoint: 0, frontier: [] };
    return { size: doc.size, checkpoint: doc.checkpoint, frontier: doc.frontier.map((h) => Buffer.from(h, 'hex')) };
  }

  async append(leaves: LedgerLeaf[], next: LedgerState): Promise<void> {
    const first = leaves.length > 0 ? leaves[0].index : next.size;
    if (next.size !== first + leaves.length) throw new LedgerConflictError(first, next.size - leaves.length);
    await inTransaction(this.connection.client, this.transactions, async (session) => {
      const stored = (await this.stateDocs.findOne({ _id: 'state' }, { session }))?.size ?? 0;
      if (stored !== first) throw new LedgerConflictError(first, stored);
      if (leaves.length > 0) {
        await this.leaves.bulkWrite(
          leaves.map((leaf) => ({
            replaceOne: {
              filter: { _id: leaf.index },
              replacement: { position: leaf.position, event_id: leaf.eventId, hash: new Binary(leaf.hash) },
              upsert: true,
            },
          })),
          { session, ordered: false },
        );
      }
      const written = await this.stateDocs.updateOne(
        first === 0
          ? { _id: 'state', $or: [{ size: 0 }, { size: { $exists: false } }] }
          : { _id: 'state', size: first },
        {
          $set: { size: next.size, checkpoint: next.checkpoint, frontier: next.frontier.map((h) => h.toString('hex')) },
        },
        { session, upsert: first === 0 },
      );
      if (written.matchedCount === 0 && written.upsertedCount === 0) throw new LedgerConflictError(first, -1);
    });
  }

  async leafHashes(start: number, end: number): Promise<Buffer[]> {
    const docs = await this.leaves
      .find({ _id: { $gte: start, $lt: end } }, { projection: { hash: 1 } })
      .sort({ _id: 1 })
      .toArray();
    return docs.map((d) => Buffer.from(d.hash.buffer));
  }

  async leafAtPosition(position: number): Promise<LedgerLeaf | undefined> {
    return this.visible(await this.leaves.findOne({ position: { $eq: position } }));
  }

  async leafOfEvent(eventId: string): Promise<LedgerLeaf | undefined> {
    return this.visible(await this.leaves.findOne({ event_id: { $eq: eventId } }));
  }

  async addHead(head: SignedHead): Promise<void> {
    const counter = await this.counters.findOneAndUpdate(
      { _id: 'heads' },
      { $inc: { seq: 1 } },
      { upsert: true, returnDocument: 'after' },
    );
    const { size, root, signed_at, key_id, signature } = head;
    await this.heads.insertOne({ _id: counter!.seq, size, root, signed_at, key_id, signature });
  }

  async listHeads(options: { before?: number; limit: number }): Promise<StoredHead[]> {
    const docs = await this.heads
      .find(options.before === undefined ? {} : { _id: { $lt: options.before } })
      .sort({ _id: -1 })
      .limit(options.limit)
      .toArray();
    return docs.map(({ _id, size, root, signed_at, key_id, signature }) => ({
      seq: _id,
      head: { size, root, signed_at, key_id, signature },
    }));
  }

  async countHeads(): Promise<number> {
    return this.heads.countDocuments();
  }

  async source(): Promise<EventStoreIdentity | null> {
    const doc = await this.sources.findOne({ _id: 'event_store' });
    return doc ? { kind: doc.kind, id: doc.id } : null;
  }

  async stampSource(store: EventStoreIdentity): Promise<void> {
    await this.sources.replaceOne({ _id: 'event_store' }, { kind: store.kind, id: store.id }, { upsert: true });
  }

  async clearLeaves(): Promise<void> {
    await this.stateDocs.deleteMany({});
    await this.leaves.deleteMany({});
  }

  async close(): Promise<void> {
    await this.connection.close();
  }

  /** A leaf past the stored size (left by an append a crash cut short) is not in the log. */
  private async visible(doc: LeafDoc | null): Promise<LedgerLeaf | undefined> {
    if (!doc || doc._id >= (await this.state()).size) return undefined;
    return { index: doc._id, position: doc.position, eventId: doc.event_id, hash: Buffer.from(doc.hash.buffer) };
  }
}
