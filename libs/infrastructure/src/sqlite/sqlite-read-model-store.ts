import { setImmediate } from 'node:timers/promises';
import { join } from 'node:path';
import Database from './sqlite-driver';
import { limitSql } from './sqlite-limit';
import {
  assertWithinWorkspace,
  CollectionSpec,
  DeadLetter,
  DeadLetterChanges,
  DeadLetterKey,
  Filter,
  FindQuery,
  indexedFields,
  InitOptions,
  ReadModelStore,
  StoredDocument,
  WriteOp,
} from '@app/application/ports';
import { deepFreeze, ReadCache, ReadCacheOptions, Touched } from './sqlite-read-cache';
import { MERGE_IN_JS, openStepWriter, Write } from './sqlite-read-model-writer.worker';
import { SqliteWorkerThread } from './sqlite-worker-thread';

/** A row of `SELECT id, workspace_id, seq, version, doc` in raw (array) mode. */
type DocRow = [id: string, workspaceId: string | null, seq: number, version: number, doc: string];

interface DeadLetterRow {
  projection: string;
  position: number;
  event_id: string;
  stream_id: string;
  event_type: string;
  error: string;
  first_failed_at: number;
  last_failed_at: number;
  attempts: number;
}

const NAME = /^[a-z][a-z0-9_]*$/;
/** A field: a key, or a dotted path of keys into nested objects. */
const FIELD = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/;
/** The column (and index name part) of a declared field: `actor.id` is `actor__id`. */
const columnOf = (field: string) => field.replace(/\./g, '__');
/**
 * Keys a merge can address as a JSON path label inside SQL (`$."key"`). Every key a projector
 * writes is an identifier; anything else takes the read-modify-write path in JS.
 */
const PATH_KEY = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/** Columns of a document row, in DocRow order (never `*`: that would also read the generated columns). */
const DOC_COLUMNS = 'id, workspace_id, seq, version, doc';

/** The read statements of one collection, prepared on first use, and the text of its writes. */
interface TableStatements {
  get: Database.Statement;
  put: string;
  delete: string;
  /** A merge that sets no field: only the version moves. */
  setVersion: string;
  /** `json_set`/`json_remove` merges by number of fields set and removed (`"<set>:<removed>"`). */
  merges: Map<string, string>;
}

export interface SqliteReadModelStoreOptions {
  /**
   * `worker`: writes (each batch of a projection: its documents, index entries, checkpoints and
   * commit) run on a connection of their own in a worker thread, so the API's event loop keeps
   * serving meanwhile; the service's choice. `inline` (default): on this thread, the reading
   * connection (one-shot tools, tests, `:memory:` files, which a second connection cannot open).
   */
  writer?: 'worker' | 'inline';
  /**
   * Keeps documents and list pages read, parsed, until a write through this store changes them
   * (sqlite-read-cache.ts). Valid only in the read models' one writer: the projector process
   * (PROJECTIONS=inline), which holds the projector lock on DATA_DIR so that no other process
   * writes the file. Absent (the default, and a replica's choice with PROJECTIONS=external): every
   * read reads the file, which another process may have changed.
   */
  readCache?: ReadCacheOptions;
}

const SAVE_CHECKPOINT =
  'INSERT INTO checkpoints (name, position) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET position = max(position, excluded.position)';
const DELETE_CHECKPOINT = 'DELETE FROM checkpoints WHERE name = ?';
const PARK_DEAD_LETTER = `INSERT OR REPLACE INTO dead_letters (projection, position, event_id, stream_id, event_type, error, first_failed_at, last_failed_at, attempts)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const DELETE_DEAD_LETTER = 'DELETE FROM dead_letters WHERE projection = ? AND position = ?';

/**
 * Read models in one SQLite file: a table per collection holding the document as JSON, with
 * the workspace and `seq` as columns (the list index). Declared fields are also kept as stored
 * generated columns (`f_<field>`), so filters on them read a column instead of parsing every
 * document's JSON, and are indexed alone and as (workspace, field, seq) for filtered lists.
 * Documents and projection checkpoints are written in one transaction, so a projection is
 * exactly-once here. Read models can always be rebuilt from the event store, so the file runs
 * with `synchronous=NORMAL`: a power cut may lose the newest transactions, never consistency.
 *
 * Hot paths (measured, see docs/performance.md): statements are prepared once per collection and
 * read in raw (array) mode with only the columns needed; a merge is one `UPDATE ... json_set(...)`
 * inside SQLite instead of reading, parsing, spreading and re-serialising the document in JS; and
 * in the projector, documents and pages read again are kept parsed (the read cache).
 */
export class SqliteReadModelStore implements ReadModelStore {
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  private readonly rawStatements = new Map<string, Database.Statement>();
  private readonly tables = new Map<string, TableStatements>();
  private readonly collections = new Map<string, CollectionSpec>();
  /** Collections filled in bulk whose secondary indexes are not built yet (see `init`). */
  private readonly deferredIndexes = new Set<string>();
  private readonly deleteDeadLetter: Database.Statement;
  private readonly writer: { write(write: Write): Promise<unknown>; close(): Promise<void> };
  /** The last write handed to the writer: schema changes on this connection wait for it. */
  private lastWrite: Promise<unknown> = Promise.resolve();
  private readonly cache: ReadCache<StoredDocument<unknown>> | null;

  constructor(file: string, options: SqliteReadModelStoreOptions = {}) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec('CREATE TABLE IF NOT EXISTS checkpoints (name TEXT PRIMARY KEY, position INTEGER NOT NULL)');
    // Parked events live beside the checkpoints, so parking one and moving past it is one transaction.
    this.db.exec(`CREATE TABLE IF NOT EXISTS dead_letters (
      projection TEXT NOT NULL, position INTEGER NOT NULL, event_id TEXT NOT NULL, stream_id TEXT NOT NULL,
      event_type TEXT NOT NULL, error TEXT NOT NULL, first_failed_at INTEGER NOT NULL, last_failed_at INTEGER NOT NULL,
      attempts INTEGER NOT NULL, PRIMARY KEY (projection, position)
    )`);
    this.deleteDeadLetter = this.db.prepare(DELETE_DEAD_LETTER);
    this.cache = options.readCache ? new ReadCache<StoredDocument<unknown>>(options.readCache) : null;
    if (options.writer === 'worker') {
      const thread = new SqliteWorkerThread<Write, null>(
        join(__dirname, 'sqlite-read-model-writer.worker.js'),
        { readModelFile: file },
        'Read model write',
      );
      this.writer = { write: (write) => thread.call(write), close: () => thread.close() };
    } else {
      const inline = openStepWriter(this.db);
      this.writer = { write: async (write) => inline.write(write), close: async () => undefined };
    }
  }

  /** Waits until every write handed to the writer has ended (committed or failed). */
  private async settled(): Promise<void> {
    await this.lastWrite;
  }

  /**
   * Hands a transaction to the writer, remembered as the last one (what `settled` waits for).
   * What it may change leaves the read cache once it has ended, committed or not, and before
   * its caller goes on.
   */
  private handOver(write: Write, touched: Touched | null): Promise<unknown> {
    let written = this.writer.write(write);
    const cache = this.cache;
    if (cache && touched) written = written.finally(() => cache.forget(touched));
    this.lastWrite = written.catch(() => undefined);
    return written;
  }

  /**
   * With `bulkLoad`, a new collection gets only its primary key now: the secondary indexes are
   * built at `swap` (or before the first query or filtered delete that needs them), in one
   * sorted pass instead of one B-tree insert per index per write. The schema is the same.
   */
  async init(collections: CollectionSpec[], options: InitOptions = {}): Promise<void> {
    await this.settled();
    for (const spec of collections) {
      assertName(spec.name);
      const fields = indexedFields(spec);
      fields.forEach(assertField);
      const table = tableOf(spec.name);
      const generated = fields
        .map((f) => `, f_${columnOf(f)} ANY GENERATED ALWAYS AS (json_extract(doc, '$.${f}')) STORED`)
        .join('');
      this.db.exec(`
        CREATE TABLE IF NOT EXISTS ${table} (
          id TEXT PRIMARY KEY, workspace_id TEXT, seq INTEGER NOT NULL, version INTEGER NOT NULL DEFAULT 0,
          doc TEXT NOT NULL${generated}
        );
      `);
      // A table from an older declaration gains the column as a virtual one (ALTER cannot add STORED).
      const existing = new Set(
        (this.db.prepare(`SELECT name FROM pragma_table_xinfo('${table}')`).all() as { name: string }[]).map(
          (c) => c.name,
        ),
      );
      for (const f of fields) {
        if (!existing.has(`f_${columnOf(f)}`))
          this.db.exec(
            `ALTER TABLE ${table} ADD COLUMN f_${columnOf(f)} ANY GENERATED ALWAYS AS (json_extract(doc, '$.${f}')) VIRTUAL`,
          );
      }
      this.collections.set(spec.name, spec);
      if (options.bulkLoad) {
        this.deferredIndexes.add(spec.name);
      } else {
        this.deferredIndexes.delete(spec.name);
        this.createIndexes(table, spec);
      }
    }
  }

  /**
   * Index names carry the table name, so a renamed (swapped-in) table gets its own anew. The list
   * indexes end in `id`, the tie-break of every page's order (`seq, id`): a page is read off the
   * index in order, with no sort of its rows (the older `..._seq` indexes, without `id`, are
   * replaced when a file made before them is opened).
   */
  private createIndexes(table: string, spec: CollectionSpec) {
    for (const sql of createIndexSql(table, spec)) this.db.exec(sql);
  }

  /** Builds a bulk-loaded collection's indexes before a query that would otherwise scan it. */
  private ensureIndexes(collection: string) {
    if (!this.deferredIndexes.delete(collection)) return;
    this.createIndexes(tableOf(collection), this.collections.get(collection)!);
  }

  private statement(sql: string): Database.Statement {
    let stmt = this.statements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.statements.set(sql, stmt);
    }
    return stmt;
  }

  private table(collection: string): string {
    if (!this.collections.has(collection)) throw new Error(`Unknown collection ${collection}`);
    return tableOf(collection);
  }

  private tableStatements(collection: string): TableStatements {
    let statements = this.tables.get(collection);
    if (!statements) {
      const table = this.table(collection);
      statements = {
        get: this.db.prepare(`SELECT ${DOC_COLUMNS} FROM ${table} WHERE id = ?`).raw(),
        put: `INSERT INTO ${table} (id, workspace_id, seq, version, doc) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET workspace_id = excluded.workspace_id, seq = excluded.seq,
             version = excluded.version, doc = excluded.doc`,
        delete: `DELETE FROM ${table} WHERE id = ?`,
        setVersion: `UPDATE ${table} SET version = coalesce(?, version) WHERE id = ?`,
        merges: new Map(),
      };
      this.tables.set(collection, statements);
    }
    return statements;
  }

  async get<T>(collection: string, id: string): Promise<StoredDocument<T> | null> {
    if (this.cache) return (this.cachedDocument(collection, id) as StoredDocument<T> | undefined) ?? null;
    const row = this.tableStatements(collection).get.get(id) as DocRow | undefined;
    return row ? toStored<T>(row) : null;
  }

  /**
   * A document from the read cache, else read, and kept (frozen: every reader gets the same
   * objects) when it was read once lately already; a missing document is never kept.
   */
  private cachedDocument(collection: string, id: string): StoredDocument<unknown> | undefined {
    const cache = this.cache!;
    const kept = cache.document(collection, id);
    if (kept) return kept;
    const row = this.tableStatements(collection).get.get(id) as DocRow | undefined;
    if (!row) return undefined;
    const found = toStored(row);
    if (cache.admitDocument(collection, id)) cache.keepDocument(collection, id, deepFreeze(found));
    return found;
  }

  /**
   * By `seq`, then `id` for documents written at one position (sorted within that group only).
   * With the read cache, a page read once lately already is kept, its documents frozen, and
   * answered from there (in a new array each time) until a write touches its collection.
   */
  async find<T>(collection: string, query: FindQuery): Promise<StoredDocument<T>[]> {
    const { sql: select, params } = this.select(collection, query, `SELECT ${DOC_COLUMNS}`);
    const order = query.descending ? 'seq DESC, id DESC' : 'seq, id';
    const sql = `${select} ORDER BY ${order} ${limitSql(query.limit)}`;
    const cache = this.cache;
    if (!cache) return (this.rawStatement(sql).all(...params) as DocRow[]).map((row) => toStored<T>(row));
    const key = pageKey(sql, params);
    const kept = cache.page(collection, key);
    if (kept) return kept.slice() as StoredDocument<T>[];
    const rows = this.rawStatement(sql).all(...params) as DocRow[];
    const found = rows.map((row) => toStored<T>(row));
    if (cache.admitPage(collection, key)) {
      let chars = 0;
      for (const row of rows) chars += row[0].length + row[4].length;
      cache.keepPage(collection, key, deepFreeze(found.slice()), chars);
    }
    return found;
  }

  async count(
    collection: string,
    query: Omit<FindQuery, 'limit' | 'afterSeq' | 'beforeSeq' | 'descending'>,
  ): Promise<number> {
    const { sql, params } = this.select(collection, query, 'SELECT count(*)');
    return this.rawStatement(sql).get(...params) as number;
  }

  /** A cached statement in raw mode (rows as arrays; a one-column row as its value via `pluck`). */
  private rawStatement(sql: string): Database.Statement {
    let stmt = this.rawStatements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      if (stmt.columns().length === 1) stmt.pluck();
      else stmt.raw();
      this.rawStatements.set(sql, stmt);
    }
    return stmt;
  }

  private select(collection: string, query: Omit<FindQuery, 'limit'>, head: string) {
    const spec = this.collections.get(collection);
    if (spec) assertWithinWorkspace(spec, query);
    this.ensureIndexes(collection);
    const clauses: string[] = [];
    const params: unknown[] = [];
    if (query.workspaceId !== undefined) {
      clauses.push('workspace_id = ?');
      params.push(query.workspaceId);
    }
    if (query.afterSeq !== undefined) {
      clauses.push('seq > ?');
      params.push(query.afterSeq);
    }
    if (query.beforeSeq !== undefined) {
      clauses.push('seq < ?');
      params.push(query.beforeSeq);
    }
    const where = filterSql(query.where ?? {}, spec);
    clauses.push(...where.clauses);
    params.push(...where.params);
    const sql = `${head} FROM ${this.table(collection)}${clauses.length ? ` WHERE ${clauses.join(' AND ')}` : ''}`;
    return { sql, params };
  }

  /**
   * One transaction (IMMEDIATE, in the writer: see sqlite-read-model-writer.worker.js). The steps
   * are built here, where the collections are known; JSON is serialised once, here.
   */
  async apply(ops: WriteOp[], checkpoints: Record<string, number>, deadLetters?: DeadLetterChanges): Promise<void> {
    // What the write may change, for the read cache to forget (nothing to gather without one).
    const touched = this.cache ? new Touched() : null;
    await this.handOver(this.writeOf(ops, checkpoints, deadLetters, touched), touched);
  }

  private writeOf(
    ops: WriteOp[],
    checkpoints: Record<string, number>,
    deadLetters: DeadLetterChanges | undefined,
    touched: Touched | null,
  ): Write {
    const write = new WriteBuilder();
    for (const op of ops) this.stepOf(op, write, touched);
    for (const d of deadLetters?.park ?? []) {
      write.run(PARK_DEAD_LETTER, [
        d.projection,
        d.position,
        d.eventId,
        d.streamId,
        d.eventType,
        d.error,
        d.firstFailedAt,
        d.lastFailedAt,
        d.attempts,
      ]);
    }
    for (const key of deadLetters?.remove ?? []) write.run(DELETE_DEAD_LETTER, [key.projection, key.position]);
    for (const name in checkpoints) write.run(SAVE_CHECKPOINT, [name, checkpoints[name]]);
    return write.done();
  }

  async listDeadLetters(projection?: string): Promise<DeadLetter[]> {
    const rows = (
      projection === undefined
        ? this.statement('SELECT * FROM dead_letters ORDER BY projection, position').all()
        : this.statement('SELECT * FROM dead_letters WHERE projection = ? ORDER BY position').all(projection)
    ) as DeadLetterRow[];
    return rows.map((row) => ({
      projection: row.projection,
      position: row.position,
      eventId: row.event_id,
      streamId: row.stream_id,
      eventType: row.event_type,
      error: row.error,
      firstFailedAt: row.first_failed_at,
      lastFailedAt: row.last_failed_at,
      attempts: row.attempts,
    }));
  }

  async removeDeadLetter(key: DeadLetterKey): Promise<boolean> {
    await this.settled();
    return this.deleteDeadLetter.run(key.projection, key.position).changes > 0;
  }

  private stepOf(op: WriteOp, write: WriteBuilder, touched: Touched | null): void {
    if (touched) {
      if (op.op === 'deleteWhere') touched.collection(op.collection);
      else touched.document(op.collection, op.id);
    }
    switch (op.op) {
      case 'put':
        write.run(this.tableStatements(op.collection).put, [
          op.id,
          op.workspaceId,
          op.seq,
          op.version ?? 0,
          JSON.stringify(op.doc),
        ]);
        return;
      case 'merge':
        this.merge(op.collection, op.id, op.set, op.version, write);
        return;
      case 'delete':
        write.run(this.tableStatements(op.collection).delete, [op.id]);
        return;
      case 'deleteWhere': {
        const table = this.table(op.collection);
        this.ensureIndexes(op.collection);
        const where = filterSql(op.where, this.collections.get(op.collection));
        write.run(`DELETE FROM ${table} WHERE workspace_id = ?${where.clauses.map((c) => ` AND ${c}`).join('')}`, [
          op.workspaceId,
          ...where.params,
        ]);
        return;
      }
    }
  }

  /**
   * Sets top-level fields inside SQLite: `json_set` keeps the other fields and their order and
   * appends new ones, exactly like `{ ...doc, ...set }` through JSON.stringify; a field set to a
   * value JSON cannot hold (`undefined`) disappears from the document, as it does there. Field
   * names a JSON path cannot carry safely are merged by read-modify-write in the writer.
   */
  private merge(
    collection: string,
    id: string,
    set: Record<string, unknown>,
    version: number | undefined,
    write: WriteBuilder,
  ): void {
    const statements = this.tableStatements(collection);
    const assigned: unknown[] = [];
    const removed: string[] = [];
    for (const key in set) {
      if (!Object.prototype.hasOwnProperty.call(set, key)) continue;
      if (!PATH_KEY.test(key)) {
        const table = this.table(collection);
        write.mergeInJs(
          `SELECT version, doc FROM ${table} WHERE id = ?`,
          `UPDATE ${table} SET doc = ?, version = ? WHERE id = ?`,
          id,
          set,
          version,
        );
        return;
      }
      const json = JSON.stringify(set[key]);
      if (json === undefined) removed.push(`$."${key}"`);
      else assigned.push(`$."${key}"`, json);
    }
    if (assigned.length === 0 && removed.length === 0) {
      write.run(statements.setVersion, [version ?? null, id]);
      return;
    }
    const shape = `${assigned.length / 2}:${removed.length}`;
    let sql = statements.merges.get(shape);
    if (!sql) {
      let doc = 'doc';
      if (assigned.length > 0) doc = `json_set(${doc}${', ?, json(?)'.repeat(assigned.length / 2)})`;
      if (removed.length > 0) doc = `json_remove(${doc}${', ?'.repeat(removed.length)})`;
      sql = `UPDATE ${this.table(collection)} SET doc = ${doc}, version = coalesce(?, version) WHERE id = ?`;
      statements.merges.set(shape, sql);
    }
    write.run(sql, [...assigned, ...removed, version ?? null, id]);
  }

  async getCheckpoints(): Promise<Record<string, number>> {
    const rows = this.statement('SELECT name, position FROM checkpoints').all() as { name: string; position: number }[];
    return Object.fromEntries(rows.map((r) => [r.name, r.position]));
  }

  async *scan<T>(collection: string): AsyncIterable<StoredDocument<T>> {
    const table = this.table(collection);
    let after = '';
    for (;;) {
      const rows = this.rawStatement(`SELECT ${DOC_COLUMNS} FROM ${table} WHERE id > ? ORDER BY id LIMIT 1000`).all(
        after,
      ) as DocRow[];
      if (rows.length === 0) return;
      for (const row of rows) yield toStored<T>(row);
      after = rows[rows.length - 1][0];
      // The reads are synchronous: without a turn of the event loop between pages, a verification
      // comparing a million documents held the API's requests for 28 s.
      await setImmediate();
    }
  }

  /**
   * Schema changes of a rebuild or a verification (dropping a collection, swapping one in) go
   * through the writer like any write: on the worker thread, dropping a large table and building
   * a swapped-in collection's indexes (seconds, for hundreds of thousands of documents) do not
   * hold the API's event loop. The writer runs writes in order, so the ones handed to it before have ended; this
   * connection's prepared statements are dropped after.
   */
  async drop(collections: string[], checkpointNames: string[]): Promise<void> {
    collections.forEach(assertName);
    const write = new WriteBuilder();
    const touched = new Touched();
    for (const collection of collections) {
      write.run(`DROP TABLE IF EXISTS ${tableOf(collection)}`, []);
      touched.collection(collection);
    }
    for (const name of checkpointNames) write.run(DELETE_CHECKPOINT, [name]);
    await this.schemaWrite(write, touched);
    for (const collection of collections) {
      this.collections.delete(collection);
      this.deferredIndexes.delete(collection);
    }
  }

  async swap(pairs: { from: string; to: string }[], checkpoints: Record<string, number>, dropCheckpoints: string[]) {
    const write = new WriteBuilder();
    const touched = new Touched();
    const swapped: { from: string; to: string; spec: CollectionSpec }[] = [];
    for (const { from, to } of pairs) {
      touched.collection(from);
      touched.collection(to);
      const spec = this.collections.get(to) ?? this.collections.get(from);
      if (!spec || !this.collections.has(from)) throw new Error(`Cannot swap ${from} into ${to}: unknown collection`);
      write.run(`DROP TABLE IF EXISTS ${tableOf(to)}`, []);
      for (const sql of dropIndexSql(tableOf(from), spec)) write.run(sql, []);
      write.run(`ALTER TABLE ${tableOf(from)} RENAME TO ${tableOf(to)}`, []);
      // Built here in one pass each, also for a bulk-loaded collection that deferred them.
      for (const sql of createIndexSql(tableOf(to), spec)) write.run(sql, []);
      swapped.push({ from, to, spec });
    }
    for (const [name, position] of Object.entries(checkpoints)) write.run(SAVE_CHECKPOINT, [name, position]);
    for (const name of dropCheckpoints) write.run(DELETE_CHECKPOINT, [name]);
    await this.schemaWrite(write, touched);
    for (const { from, to, spec } of swapped) {
      this.collections.delete(from);
      this.deferredIndexes.delete(from);
      this.deferredIndexes.delete(to);
      this.collections.set(to, { ...spec, name: to });
    }
  }

  /** One schema-changing transaction through the writer; then statements naming tables are prepared anew. */
  private async schemaWrite(write: WriteBuilder, touched: Touched): Promise<void> {
    try {
      await this.handOver(write.done(), touched);
    } finally {
      // Prepared statements name tables; after a rename or a drop they must be prepared again.
      this.forgetStatements();
    }
  }

  private forgetStatements() {
    this.statements.clear();
    this.rawStatements.clear();
    this.tables.clear();
  }

  async close(): Promise<void> {
    if (!this.db.open) return;
    // Writes already handed over are committed (or fail) before the writer goes away.
    await this.settled();
    await this.writer.close();
    if (this.db.open) this.db.close();
  }
}

/** Collects one transaction's steps, each statement's text listed once. */
class WriteBuilder implements Write {
  readonly sqls: string[] = [];
  readonly steps: unknown[] = [];
  private readonly indexes = new Map<string, number>();

  private indexOf(sql: string): number {
    let index = this.indexes.get(sql);
    if (index === undefined) {
      index = this.sqls.push(sql) - 1;
      this.indexes.set(sql, index);
    }
    return index;
  }

  run(sql: string, params: unknown[]) {
    this.steps.push(this.indexOf(sql), params.length, ...params);
  }

  mergeInJs(selectSql: string, updateSql: string, id: string, set: Record<string, unknown>, version?: number) {
    this.steps.push(MERGE_IN_JS, this.indexOf(selectSql), this.indexOf(updateSql), id, set, version);
  }

  /** What crosses to the writer: the texts and the steps (not the lookup table). */
  done(): Write {
    return { sqls: this.sqls, steps: this.steps };
  }
}

/** The statements that build a collection's secondary indexes (see `createIndexes`). */
function createIndexSql(table: string, spec: CollectionSpec): string[] {
  const sqls = [
    `CREATE INDEX IF NOT EXISTS ${table}_ws_seq_id ON ${table} (workspace_id, seq, id)`,
    `DROP INDEX IF EXISTS ${table}_ws_seq`,
  ];
  if (spec.listedAcrossWorkspaces === 'indexed')
    sqls.push(`CREATE INDEX IF NOT EXISTS ${table}_seq_id ON ${table} (seq, id)`);
  for (const field of spec.orderedIndexes ?? []) {
    const column = columnOf(field);
    sqls.push(`CREATE INDEX IF NOT EXISTS ${table}_${column}_seq_id ON ${table} (f_${column}, seq, id)`);
  }
  const acrossWorkspaces = new Set(spec.indexes ?? []);
  for (const field of [...(spec.indexes ?? []), ...(spec.workspaceIndexes ?? [])]) {
    const column = columnOf(field);
    sqls.push(
      // A field declared within a workspace only loses the index of an older declaration.
      acrossWorkspaces.has(field)
        ? `CREATE INDEX IF NOT EXISTS ${table}_${column} ON ${table} (f_${column})`
        : `DROP INDEX IF EXISTS ${table}_${column}`,
      `CREATE INDEX IF NOT EXISTS ${table}_ws_${column}_seq_id ON ${table} (workspace_id, f_${column}, seq, id)`,
      `DROP INDEX IF EXISTS ${table}_ws_${column}_seq`,
    );
  }
  return sqls;
}

/** The statements that drop them, under every name they have had. */
function dropIndexSql(table: string, spec: CollectionSpec): string[] {
  const names = ['ws_seq', 'ws_seq_id', 'seq_id'];
  for (const field of indexedFields(spec)) {
    const column = columnOf(field);
    names.push(column, `ws_${column}_seq`, `ws_${column}_seq_id`, `${column}_seq_id`);
  }
  return names.map((name) => `DROP INDEX IF EXISTS ${table}_${name}`);
}

function assertName(name: string) {
  if (!NAME.test(name)) throw new Error(`Invalid collection or field name: ${name}`);
}

function assertField(name: string) {
  if (!FIELD.test(name)) throw new Error(`Invalid field name: ${name}`);
}

const tableOf = (collection: string) => `rm_${collection}`;

/** Values go through JSON so booleans and nulls compare as they were stored. */
function filterSql(filter: Filter, spec?: CollectionSpec): { clauses: string[]; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const declared = new Set(spec ? indexedFields(spec) : []);
  for (const [field, condition] of Object.entries(filter)) {
    assertField(field);
    const expr = declared.has(field) ? `f_${columnOf(field)}` : `json_extract(doc, '$.${field}')`;
    if (condition !== null && typeof condition === 'object' && 'in' in condition) {
      if (condition.in.length === 0) {
        clauses.push('0');
        continue;
      }
      clauses.push(`${expr} IN (${condition.in.map(() => '?').join(', ')})`);
      params.push(...condition.in.map(sqlValue));
    } else if (condition !== null && typeof condition === 'object') {
      if (condition.gte !== undefined) {
        clauses.push(`${expr} >= ?`);
        params.push(condition.gte);
      }
      if (condition.lte !== undefined) {
        clauses.push(`${expr} <= ?`);
        params.push(condition.lte);
      }
    } else if (condition === null) {
      clauses.push(`${expr} IS NULL`);
    } else {
      clauses.push(`${expr} = ?`);
      params.push(sqlValue(condition));
    }
  }
  return { clauses, params };
}

/** json_extract yields 1/0 for JSON booleans. */
const sqlValue = (value: unknown) => (typeof value === 'boolean' ? (value ? 1 : 0) : value);

/** A query's key in the read cache: its statement and its parameters (a string and a number stay apart). */
const pageKey = (sql: string, params: unknown[]) => `${sql}\u0000${JSON.stringify(params)}`;

function toStored<T>(row: DocRow): StoredDocument<T> {
  return { id: row[0], workspaceId: row[1], seq: row[2], version: row[3], doc: JSON.parse(row[4]) as T };
}
