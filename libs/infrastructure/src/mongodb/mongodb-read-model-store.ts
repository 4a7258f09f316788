import { AnyBulkWriteOperation, ClientSession, Collection, Db, Document, MongoServerError } from 'mongodb';
import {
  assertWithinWorkspace,
  CollectionSpec,
  DeadLetter,
  DeadLetterChanges,
  DeadLetterKey,
  Filter,
  FindQuery,
  indexedFields,
  ReadModelStore,
  Scalar,
  StoredDocument,
  WriteOp,
} from '@app/application/ports';
import { MongoConnection } from './mongodb-connection';
import { inTransaction } from './transactions';

/** How a read-model document is stored: the port's envelope in `_`-fields, the document's own fields beside them. */
interface StoredRow extends Document {
  _id: string;
  _ws: string | null;
  _seq: number;
  _v?: number;
  /** The position of the last event written into the document (absent on documents stored without one). */
  _at?: number;
}

interface CheckpointRow extends Document {
  _id: string;
  position: number;
}

/** A parked event: the port's DeadLetter under a key made of its projection and position. */
interface DeadLetterRow extends Document, DeadLetter {
  _id: string;
}

export interface MongoReadModelStoreOptions {
  /**
   * Whether `apply` and `reset` run in a multi-document transaction. Detected by default: yes on
   * a replica set or behind mongos, no on a standalone server (which cannot run transactions).
   */
  transactions?: boolean;
}

const NAME = /^[a-z][a-z0-9_]*$/;
/** A field: a key, or a dotted path of keys into nested objects (MongoDB's own field paths). */
const FIELD = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/;
/** An index name part of a field: `actor.id` is `actor__id`. */
const indexPart = (field: string) => field.replace(/\./g, '__');
const CHECKPOINTS = '_checkpoints';
const DEAD_LETTERS = '_dead_letters';

/** Lists are ordered by `seq`, then by id for documents written at one position: a total, stable order. */
const LIST_ORDER = { _seq: 1, _id: 1 } as const;
/** The same order, newest first (read off the same indexes backwards). */
const DESCENDING_ORDER = { _seq: -1, _id: -1 } as const;
/** The list index of an older release, replaced by `ws_seq_id` (same prefix, plus the tie-breaker). */
const OLD_LIST_INDEX = 'ws_seq';

/**
 * Read models in MongoDB: one collection per read-model collection (`rm_<name>`), documents stored
 * as `{ _id: id, _ws: workspaceId, _seq: seq, ...doc }`. Indexes match the SQLite adapter's:
 * `(_ws, _seq, _id)` for the lists, per declared field one on `(_ws, field, _seq, _id)` for filtered lists
 * (projects by status, jobs by project, the audit feed by type), and one on the field alone for the
 * fields looked up across workspaces (`indexes`: an API key by hash). Lists sort on `(_seq, _id)`,
 * which those indexes hold in order, so a page is read off the index and stops at its limit instead
 * of sorting every match in memory; `_id` breaks ties between documents written at one position, so
 * the order is the same from one query to the next (a sort on `_seq` alone may return ties in any
 * order, and differently with and without a limit). Projection checkpoints live in `_checkpoints`
 * as `{ _id: name, position }`, and only move forwards.
 *
 * The read models have one writer, the projector that holds the projector lease (see
 * MongoProjectorLease). Should another still write for a moment (a projector that has not yet
 * seen its lease lost), its late batches cannot undo newer ones: every write is guarded by the
 * position of its event (`toModel`) and every checkpoint by the stored one.
 *
 * On a replica set (the supported deployment) `apply` writes documents and checkpoints in one
 * transaction, so a projection is exactly-once, as on SQLite. On a standalone server it falls back
 * to ordered writes followed by the checkpoints; every op is idempotent (put replaces, merge sets,
 * deletes delete), so replaying from the last checkpoint after a crash converges to the same state.
 *
 * Queries are built only from the port's `Filter` type: field names must be plain identifiers
 * and values scalars, always compared with `$eq` / `$in`, so no value can act as an operator.
 *
 * Nothing read is cached: the projector and the replicas share these collections, so no process
 * sees every change to them, and every read asks the server.
 */
export class MongoReadModelStore implements ReadModelStore {
  private readonly collections = new Map<string, CollectionSpec>();
  /** The last apply handed over: the next one starts when it has settled (the port's order). */
  private applying: Promise<unknown> = Promise.resolve();

  private readonly db: Db;

  constructor(
    private readonly connection: MongoConnection,
    private readonly transactions: boolean,
  ) {
    this.db = connection.db();
  }

  /**
   * Checks the server and prepares the collections of checkpoints and dead letters, in the
   * connection's database. The store closes the connection (its handle) with itself.
   */
  static async connect(
    connection: MongoConnection,
    options: MongoReadModelStoreOptions = {},
  ): Promise<MongoReadModelStore> {
    try {
      const db = connection.db();
      const transactions = options.transactions ?? (await connection.transactions());
      await ensureCollection(db, CHECKPOINTS);
      await ensureCollection(db, DEAD_LETTERS);
      await db.collection(DEAD_LETTERS).createIndex({ projection: 1, position: 1 }, { name: 'projection_position' });
      return new MongoReadModelStore(connection, transactions);
    } catch (error) {
      await connection.close().catch(() => undefined);
      throw error;
    }
  }

  /**
   * `bulkLoad` is not used here: indexes travel with a collection through `swap`'s rename, so they
   * are made from the start. (Building them just before the rename would be the MongoDB
   * counterpart of the SQLite adapter's deferral; not measured.)
   */
  async init(collections: CollectionSpec[]): Promise<void> {
    for (const spec of collections) {
      assertName(spec.name);
      for (const field of indexedFields(spec)) assertField(field);
    }
    for (const spec of collections) {
      // Collections are created up front: creating one implicitly inside a transaction is
      // restricted (and impossible before MongoDB 4.4).
      await ensureCollection(this.db, collectionOf(spec.name));
      const collection = this.db.collection<StoredRow>(collectionOf(spec.name));
      await collection.createIndex({ _ws: 1, ...LIST_ORDER }, { name: 'ws_seq_id' });
      if (spec.listedAcrossWorkspaces === 'indexed')
        await collection.createIndex({ ...LIST_ORDER }, { name: 'seq_id' });
      for (const field of spec.orderedIndexes ?? []) {
        await collection.createIndex({ [field]: 1, ...LIST_ORDER }, { name: `${indexPart(field)}_seq_id` });
      }
      const acrossWorkspaces = new Set(spec.indexes ?? []);
      for (const field of [...(spec.indexes ?? []), ...(spec.workspaceIndexes ?? [])]) {
        const part = indexPart(field);
        await collection.createIndex({ _ws: 1, [field]: 1, ...LIST_ORDER }, { name: `ws_${part}_seq_id` });
        // A field declared within a workspace only loses the index of an older declaration.
        if (acrossWorkspaces.has(field)) await collection.createIndex({ [field]: 1 }, { name: `field_${part}` });
        else await dropIndexIfAny(collection, `field_${part}`);
      }
      // Its replacement exists now; another process starting at once may have dropped it already.
      await dropIndexIfAny(collection, OLD_LIST_INDEX);
      this.collections.set(spec.name, spec);
    }
  }

  async get<T>(collection: string, id: string): Promise<StoredDocument<T> | null> {
    const row = await this.collection(collection).findOne({ _id: id });
    return row ? toStored<T>(row) : null;
  }

  async find<T>(collection: string, query: FindQuery): Promise<StoredDocument<T>[]> {
    const target = this.queried(collection, query);
    // MongoDB reads a limit of 0 as "no limit".
    if (!(query.limit > 0)) return [];
    const sort = query.descending ? DESCENDING_ORDER : LIST_ORDER;
    const rows = await target.find(selector(query), { sort, limit: Math.floor(query.limit) }).toArray();
    return rows.map((row) => toStored<T>(row));
  }

  async count(
    collection: string,
    query: Omit<FindQuery, 'limit' | 'afterSeq' | 'beforeSeq' | 'descending'>,
  ): Promise<number> {
    return this.queried(collection, query).countDocuments(selector(query));
  }

  async apply(ops: WriteOp[], checkpoints: Record<string, number>, deadLetters?: DeadLetterChanges): Promise<void> {
    // Validate and translate everything before writing anything.
    const writes = this.translate(ops);
    const checkpointWrites = checkpointOps(checkpoints);
    const deadLetterWrites = deadLetterOps(deadLetters);
    const before = this.applying;
    if (writes.size === 0 && checkpointWrites.length === 0 && deadLetterWrites.length === 0) {
      await before;
      return;
    }

    const run = async (session?: ClientSession) => {
      // Ops on different collections commute, so one ordered bulk write per collection keeps
      // the meaning of the ops' order while saving round trips.
      for (const [name, models] of writes) {
        await this.db.collection<StoredRow>(name).bulkWrite(models, { ordered: true, session });
      }
      // Before the checkpoints: without a transaction, a crash in between parks the event again on replay.
      if (deadLetterWrites.length > 0) {
        await this.db.collection<DeadLetterRow>(DEAD_LETTERS).bulkWrite(deadLetterWrites, { ordered: true, session });
      }
      if (checkpointWrites.length > 0) {
        await this.db.collection<CheckpointRow>(CHECKPOINTS).bulkWrite(checkpointWrites, { ordered: true, session });
      }
    };
    // Calls land in the order they were made (a replay has several batches in flight): each
    // starts once the one before has settled, whether it failed or not.
    const applied = before.then(() => inTransaction(this.connection.client, this.transactions, run));
    this.applying = applied.catch(() => undefined);
    await applied;
  }

  async getCheckpoints(): Promise<Record<string, number>> {
    const rows = await this.db.collection<CheckpointRow>(CHECKPOINTS).find({}).toArray();
    return Object.fromEntries(rows.map((row) => [row._id, row.position]));
  }

  async listDeadLetters(projection?: string): Promise<DeadLetter[]> {
    const filter = projection === undefined ? {} : { projection: { $eq: String(projection) } };
    const rows = await this.db
      .collection<DeadLetterRow>(DEAD_LETTERS)
      .find(filter, { sort: { projection: 1, position: 1 } })
      .toArray();
    return rows.map(({ _id, ...letter }) => ({
      projection: letter.projection,
      position: letter.position,
      eventId: letter.eventId,
      streamId: letter.streamId,
      eventType: letter.eventType,
      error: letter.error,
      firstFailedAt: letter.firstFailedAt,
      lastFailedAt: letter.lastFailedAt,
      attempts: letter.attempts,
    }));
  }

  async removeDeadLetter(key: DeadLetterKey): Promise<boolean> {
    const result = await this.db.collection<DeadLetterRow>(DEAD_LETTERS).deleteOne({ _id: deadLetterId(key) });
    return result.deletedCount > 0;
  }

  async *scan<T>(collection: string): AsyncIterable<StoredDocument<T>> {
    for await (const row of this.collection(collection).find({}, { sort: { _id: 1 } })) yield toStored<T>(row);
  }

  async drop(collections: string[], checkpointNames: string[]): Promise<void> {
    for (const name of collections) {
      assertName(name);
      await this.db.dropCollection(collectionOf(name)).catch((error: { codeName?: string }) => {
        if (error?.codeName !== 'NamespaceNotFound') throw error;
      });
      this.collections.delete(name);
    }
    if (checkpointNames.length > 0) {
      await this.db.collection<CheckpointRow>(CHECKPOINTS).deleteMany({ _id: { $in: checkpointNames.map(String) } });
    }
  }

  /**
   * `renameCollection` with `dropTarget` replaces the live collection in one step for readers
   * (indexes travel with it). The checkpoint is written right after: a crash in between leaves the
   * new documents with the old checkpoint, and the engine replays the gap (every op is idempotent).
   */
  async swap(pairs: { from: string; to: string }[], checkpoints: Record<string, number>, dropCheckpoints: string[]) {
    for (const { from, to } of pairs) {
      this.collection(from);
      assertName(to);
      await this.db.renameCollection(collectionOf(from), collectionOf(to), { dropTarget: true });
      const spec = this.collections.get(from)!;
      this.collections.delete(from);
      this.collections.set(to, { ...spec, name: to });
    }
    await this.db
      .collection<CheckpointRow>(CHECKPOINTS)
      .bulkWrite([
        ...checkpointOps(checkpoints),
        ...dropCheckpoints.map((name) => ({ deleteOne: { filter: { _id: name } } })),
      ]);
  }

  /**
   * A change stream on `_checkpoints`: one per replica process, whatever the number of writes
   * waiting. Only a replica set has change streams; on a standalone server it fails at once and
   * the caller keeps polling.
   */
  watchCheckpoints(onChange: () => void, onError: (error: unknown) => void): { close(): Promise<void> } {
    let stream: ReturnType<Collection['watch']>;
    try {
      stream = this.db.collection<CheckpointRow>(CHECKPOINTS).watch([], { batchSize: 100 });
    } catch (error) {
      queueMicrotask(() => onError(error));
      return { close: async () => undefined };
    }
    stream.on('change', () => onChange());
    stream.on('error', (error) => onError(error));
    return { close: () => stream.close() };
  }

  async close(): Promise<void> {
    await this.connection.close();
  }

  private collection(name: string): Collection<StoredRow> {
    if (!this.collections.has(name)) throw new Error(`Unknown collection ${name}`);
    return this.db.collection<StoredRow>(collectionOf(name));
  }

  /** The collection a query reads, once the query is within the scope its indexes serve. */
  private queried(name: string, query: Omit<FindQuery, 'limit'>): Collection<StoredRow> {
    const target = this.collection(name);
    assertWithinWorkspace(this.collections.get(name)!, query);
    return target;
  }

  private translate(ops: WriteOp[]): Map<string, AnyBulkWriteOperation<StoredRow>[]> {
    const byCollection = new Map<string, AnyBulkWriteOperation<StoredRow>[]>();
    for (const op of ops) {
      this.collection(op.collection); // throws for an unknown collection
      const model = toModel(op);
      if (!model) continue;
      const name = collectionOf(op.collection);
      let models = byCollection.get(name);
      if (!models) byCollection.set(name, (models = []));
      models.push(model);
    }
    return byCollection;
  }
}

/**
 * Matches a document that reflects no event after `at` (or one stored without a position): the
 * guard that keeps a write from rolling a document back to an older state.
 */
const reflectsNoLaterThan = (at: number | undefined): Document =>
  at === undefined ? {} : { _at: { $not: { $gt: at } } };

/**
 * One op as a bulk-write model. An op stamped with the position of its event (`at`, see WriteOp)
 * changes a document only while the document reflects no later event, and stores that position in
 * `_at`: a batch that arrives late (a projector that lost its lease, a replay from an older
 * checkpoint) cannot roll a document back. Writes of one event (same `at`) all apply.
 */
export function toModel(op: WriteOp): AnyBulkWriteOperation<StoredRow> | null {
  switch (op.op) {
    case 'put': {
      assertDocumentFields(op.doc);
      const replacement = { ...op.doc, _ws: op.workspaceId, _seq: op.seq, _v: op.version ?? 0 };
      if (op.at === undefined) return { replaceOne: { filter: { _id: op.id }, replacement, upsert: true } };
      // One conditional replacement (a pipeline update), not a filtered upsert: when a later
      // document exists, that upsert would fail on the duplicate _id, and inside a transaction
      // the failure aborts the whole batch. `$literal` keeps the document's values from being read
      // as expressions (a string starting with `$`).
      const fresh = { _id: op.id, ...replacement, _at: op.at };
      return {
        updateOne: {
          filter: { _id: op.id },
          update: [{ $replaceWith: { $cond: [{ $gt: ['$_at', op.at] }, '$$ROOT', { $literal: fresh }] } }],
          upsert: true,
        },
      };
    }
    case 'merge': {
      assertDocumentFields(op.set);
      // A field set to `undefined` disappears, as it does from the JSON document on SQLite.
      const set: Document = {};
      const unset: Document = {};
      for (const [key, value] of Object.entries(op.set)) {
        if (value === undefined) unset[key] = '';
        else set[key] = value;
      }
      if (op.version !== undefined) set._v = op.version;
      if (Object.keys(set).length === 0 && Object.keys(unset).length === 0) return null;
      if (op.at !== undefined) set._at = op.at;
      const update: Document = {};
      if (Object.keys(set).length > 0) update.$set = set;
      if (Object.keys(unset).length > 0) update.$unset = unset;
      // No upsert: a merge into a missing document leaves it missing.
      return { updateOne: { filter: { _id: op.id, ...reflectsNoLaterThan(op.at) }, update, upsert: false } };
    }
    case 'delete':
      return { deleteOne: { filter: { _id: op.id, ...reflectsNoLaterThan(op.at) } } };
    case 'deleteWhere':
      return {
        deleteMany: {
          filter: { _ws: { $eq: op.workspaceId }, ...filterQuery(op.where), ...reflectsNoLaterThan(op.at) },
        },
      };
  }
}

/** Checkpoints only move forwards (`$max`): a late batch cannot move one back. */
export function checkpointOps(checkpoints: Record<string, number>): AnyBulkWriteOperation<CheckpointRow>[] {
  return Object.entries(checkpoints).map(([name, position]) => {
    if (typeof position !== 'number' || !Number.isFinite(position)) {
      throw new Error(`Invalid checkpoint position for ${name}: ${String(position)}`);
    }
    return { updateOne: { filter: { _id: name }, update: { $max: { position } }, upsert: true } };
  });
}

function deadLetterId(key: DeadLetterKey): string {
  if (typeof key.position !== 'number' || !Number.isFinite(key.position))
    throw new Error('Invalid dead-letter position');
  return `${String(key.projection)}@${key.position}`;
}

function deadLetterOps(changes: DeadLetterChanges | undefined): AnyBulkWriteOperation<DeadLetterRow>[] {
  if (!changes) return [];
  return [
    ...(changes.park ?? []).map((letter) => {
      const row: DeadLetterRow = { _id: deadLetterId(letter), ...letter };
      return { replaceOne: { filter: { _id: row._id }, replacement: row, upsert: true } };
    }),
    ...(changes.remove ?? []).map((key) => ({ deleteOne: { filter: { _id: deadLetterId(key) } } })),
  ];
}

/** Drops an index that may not exist (a fresh collection, or another process dropped it first). */
async function dropIndexIfAny(collection: Collection<StoredRow>, name: string): Promise<void> {
  await collection.dropIndex(name).catch((error: { codeName?: string }) => {
    if (error?.codeName !== 'IndexNotFound') throw error;
  });
}

function selector(query: Omit<FindQuery, 'limit'>): Document {
  const out: Document = { ...filterQuery(query.where ?? {}) };
  if (query.workspaceId !== undefined) out._ws = { $eq: assertScalar(query.workspaceId) };
  const seq: Document = {};
  if (query.afterSeq !== undefined) {
    if (typeof query.afterSeq !== 'number') throw new Error('afterSeq must be a number');
    seq.$gt = query.afterSeq;
  }
  if (query.beforeSeq !== undefined) {
    if (typeof query.beforeSeq !== 'number') throw new Error('beforeSeq must be a number');
    seq.$lt = query.beforeSeq;
  }
  if (Object.keys(seq).length > 0) out._seq = seq;
  return out;
}

/** Equality (`$eq`, so `null` also matches a missing field, as on SQLite) or `$in` on top-level fields. */
function filterQuery(filter: Filter): Document {
  const out: Document = {};
  for (const [field, condition] of Object.entries(filter)) {
    assertField(field);
    if (condition !== null && typeof condition === 'object' && 'in' in condition) {
      if (!Array.isArray(condition.in)) throw new Error(`Invalid filter on ${field}`);
      out[field] = { $in: condition.in.map(assertScalar) };
    } else if (condition !== null && typeof condition === 'object') {
      const range: Document = {};
      if (condition.gte !== undefined) range.$gte = assertNumber(condition.gte);
      if (condition.lte !== undefined) range.$lte = assertNumber(condition.lte);
      if (Object.keys(range).length === 0) throw new Error(`Invalid filter on ${field}`);
      out[field] = range;
    } else {
      out[field] = { $eq: assertScalar(condition) };
    }
  }
  return out;
}

function assertNumber(value: unknown): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  throw new Error('Range bounds must be finite numbers');
}

function assertScalar(value: unknown): Scalar {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  throw new Error(`Filter values must be strings, finite numbers, booleans or null`);
}

function assertName(name: string): void {
  if (!NAME.test(name)) throw new Error(`Invalid collection or field name: ${name}`);
}

function assertField(name: string): void {
  if (!FIELD.test(name)) throw new Error(`Invalid field name: ${name}`);
}

/** Document fields are the projection's own: never `_`-prefixed (ours), `$`-prefixed or dotted. */
function assertDocumentFields(doc: Record<string, unknown>): void {
  for (const key of Object.keys(doc)) {
    if (key.startsWith('_') || key.startsWith('$') || key.includes('.')) {
      throw new Error(`Invalid read-model document field: ${key}`);
    }
  }
}

const collectionOf = (name: string) => `rm_${name}`;

function toStored<T>(row: StoredRow): StoredDocument<T> {
  const doc: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) if (!key.startsWith('_')) doc[key] = value;
  return { id: row._id, workspaceId: row._ws ?? null, seq: row._seq, version: row._v ?? 0, doc: doc as T };
}

async function ensureCollection(db: Db, name: string): Promise<void> {
  const existing = await db.listCollections({ name }, { nameOnly: true }).toArray();
  if (existing.length > 0) return;
  try {
    await db.createCollection(name);
  } catch (error) {
    // Another process created it between the check and here.
    if (!(error instanceof MongoServerError && (error.code === 48 || error.codeName === 'NamespaceExists')))
      throw error;
  }
}
