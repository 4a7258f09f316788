import Database from 'better-sqlite3';
import {
  CollectionSpec,
  Filter,
  FindQuery,
  ReadModelStore,
  StoredDocument,
  WriteOp,
} from '@app/application/ports';

interface DocRow {
  id: string;
  workspace_id: string | null;
  seq: number;
  version: number;
  doc: string;
}

const NAME = /^[a-z][a-z0-9_]*$/;

/**
 * Read models in one SQLite file: a table per collection holding the document as JSON, with
 * the workspace and `seq` as columns (the list index). Declared fields are also kept as stored
 * generated columns (`f_<field>`), so filters on them read a column instead of parsing every
 * document's JSON, and are indexed alone and as (workspace, field, seq) for filtered lists.
 * Documents and projection checkpoints are written in one transaction, so a projection is
 * exactly-once here. Read models can always be rebuilt from the event store, so the file runs
 * with `synchronous=NORMAL`: a power cut may lose the newest transactions, never consistency.
 */
export class SqliteReadModelStore implements ReadModelStore {
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  private readonly collections = new Map<string, CollectionSpec>();

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec('CREATE TABLE IF NOT EXISTS checkpoints (name TEXT PRIMARY KEY, position INTEGER NOT NULL)');
  }

  async init(collections: CollectionSpec[]): Promise<void> {
    for (const spec of collections) {
      assertName(spec.name);
      (spec.indexes ?? []).forEach(assertName);
      const table = tableOf(spec.name);
      const fields = spec.indexes ?? [];
      const generated = fields.map((f) => `, f_${f} ANY GENERATED ALWAYS AS (json_extract(doc, '$.${f}')) STORED`).join('');
      this.db.exec(`
        CREATE TABLE IF NOT EXISTS ${table} (
          id TEXT PRIMARY KEY, workspace_id TEXT, seq INTEGER NOT NULL, version INTEGER NOT NULL DEFAULT 0,
          doc TEXT NOT NULL${generated}
        );
      `);
      // A table from an older declaration gains the column as a virtual one (ALTER cannot add STORED).
      const existing = new Set((this.db.prepare(`SELECT name FROM pragma_table_xinfo('${table}')`).all() as { name: string }[]).map((c) => c.name));
      for (const f of fields) {
        if (!existing.has(`f_${f}`)) this.db.exec(`ALTER TABLE ${table} ADD COLUMN f_${f} ANY GENERATED ALWAYS AS (json_extract(doc, '$.${f}')) VIRTUAL`);
      }
      this.createIndexes(table, spec);
      this.collections.set(spec.name, spec);
    }
  }

  /** Index names carry the table name, so a renamed (swapped-in) table gets its own anew. */
  private createIndexes(table: string, spec: CollectionSpec) {
    this.db.exec(`CREATE INDEX IF NOT EXISTS ${table}_ws_seq ON ${table} (workspace_id, seq)`);
    for (const field of spec.indexes ?? []) {
      this.db.exec(`CREATE INDEX IF NOT EXISTS ${table}_${field} ON ${table} (f_${field})`);
      this.db.exec(`CREATE INDEX IF NOT EXISTS ${table}_ws_${field}_seq ON ${table} (workspace_id, f_${field}, seq)`);
    }
  }

  private dropIndexes(table: string, spec: CollectionSpec) {
    this.db.exec(`DROP INDEX IF EXISTS ${table}_ws_seq`);
    for (const field of spec.indexes ?? []) {
      this.db.exec(`DROP INDEX IF EXISTS ${table}_${field}`);
      this.db.exec(`DROP INDEX IF EXISTS ${table}_ws_${field}_seq`);
    }
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

  async get<T>(collection: string, id: string): Promise<StoredDocument<T> | null> {
    return this.getSync<T>(collection, id);
  }

  private getSync<T>(collection: string, id: string): StoredDocument<T> | null {
    const row = this.statement(`SELECT * FROM ${this.table(collection)} WHERE id = ?`).get(id) as DocRow | undefined;
    return row ? toStored<T>(row) : null;
  }

  async find<T>(collection: string, query: FindQuery): Promise<StoredDocument<T>[]> {
    const { sql, params } = this.select(collection, query, 'SELECT *');
    const rows = this.statement(`${sql} ORDER BY seq LIMIT ?`).all(...params, query.limit) as DocRow[];
    return rows.map((row) => toStored<T>(row));
  }

  async count(collection: string, query: Omit<FindQuery, 'limit' | 'afterSeq'>): Promise<number> {
    const { sql, params } = this.select(collection, query, 'SELECT count(*) AS n');
    return (this.statement(sql).get(...params) as { n: number }).n;
  }

  private select(collection: string, query: Omit<FindQuery, 'limit'>, head: string) {
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
    const where = filterSql(query.where ?? {}, this.collections.get(collection));
    clauses.push(...where.clauses);
    params.push(...where.params);
    const sql = `${head} FROM ${this.table(collection)}${clauses.length ? ` WHERE ${clauses.join(' AND ')}` : ''}`;
    return { sql, params };
  }

  async apply(ops: WriteOp[], checkpoints: Record<string, number>): Promise<void> {
    this.db.transaction(() => {
      for (const op of ops) this.applyOne(op);
      const save = this.statement(
        'INSERT INTO checkpoints (name, position) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET position = excluded.position',
      );
      for (const [name, position] of Object.entries(checkpoints)) save.run(name, position);
    })();
  }

  private applyOne(op: WriteOp): void {
    const table = this.table(op.collection);
    switch (op.op) {
      case 'put':
        this.statement(
          `INSERT INTO ${table} (id, workspace_id, seq, version, doc) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET workspace_id = excluded.workspace_id, seq = excluded.seq,
             version = excluded.version, doc = excluded.doc`,
        ).run(op.id, op.workspaceId, op.seq, op.version ?? 0, JSON.stringify(op.doc));
        return;
      case 'merge': {
        const current = this.getSync<Record<string, unknown>>(op.collection, op.id);
        if (!current) return;
        this.statement(`UPDATE ${table} SET doc = ?, version = ? WHERE id = ?`).run(
          JSON.stringify({ ...current.doc, ...op.set }),
          op.version ?? current.version,
          op.id,
        );
        return;
      }
      case 'delete':
        this.statement(`DELETE FROM ${table} WHERE id = ?`).run(op.id);
        return;
      case 'deleteWhere': {
        const where = filterSql(op.where, this.collections.get(op.collection));
        this.statement(
          `DELETE FROM ${table} WHERE workspace_id = ?${where.clauses.map((c) => ` AND ${c}`).join('')}`,
        ).run(op.workspaceId, ...where.params);
        return;
      }
    }
  }

  async getCheckpoints(): Promise<Record<string, number>> {
    const rows = this.statement('SELECT name, position FROM checkpoints').all() as { name: string; position: number }[];
    return Object.fromEntries(rows.map((r) => [r.name, r.position]));
  }

  async *scan<T>(collection: string): AsyncIterable<StoredDocument<T>> {
    const table = this.table(collection);
    let after = '';
    for (;;) {
      const rows = this.statement(`SELECT * FROM ${table} WHERE id > ? ORDER BY id LIMIT 1000`).all(after) as DocRow[];
      if (rows.length === 0) return;
      for (const row of rows) yield toStored<T>(row);
      after = rows[rows.length - 1].id;
    }
  }

  async drop(collections: string[], checkpointNames: string[]): Promise<void> {
    collections.forEach(assertName);
    this.db.transaction(() => {
      for (const collection of collections) {
        this.db.exec(`DROP TABLE IF EXISTS ${tableOf(collection)}`);
        this.collections.delete(collection);
      }
      for (const name of checkpointNames) this.statement('DELETE FROM checkpoints WHERE name = ?').run(name);
    })();
    this.statements.clear();
  }

  async swap(pairs: { from: string; to: string }[], checkpoints: Record<string, number>, dropCheckpoints: string[]) {
    this.db.transaction(() => {
      for (const { from, to } of pairs) {
        const spec = this.collections.get(to) ?? this.collections.get(from);
        if (!spec || !this.collections.has(from)) throw new Error(`Cannot swap ${from} into ${to}: unknown collection`);
        this.db.exec(`DROP TABLE IF EXISTS ${tableOf(to)}`);
        this.dropIndexes(tableOf(from), spec);
        this.db.exec(`ALTER TABLE ${tableOf(from)} RENAME TO ${tableOf(to)}`);
        this.createIndexes(tableOf(to), spec);
        this.collections.delete(from);
        this.collections.set(to, { ...spec, name: to });
      }
      const save = this.statement(
        'INSERT INTO checkpoints (name, position) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET position = excluded.position',
      );
      for (const [name, position] of Object.entries(checkpoints)) save.run(name, position);
      for (const name of dropCheckpoints) this.statement('DELETE FROM checkpoints WHERE name = ?').run(name);
    })();
    // Prepared statements name tables; after a rename they must be prepared again.
    this.statements.clear();
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}

function assertName(name: string) {
  if (!NAME.test(name)) throw new Error(`Invalid collection or field name: ${name}`);
}

const tableOf = (collection: string) => `rm_${collection}`;

/** Values go through JSON so booleans and nulls compare as they were stored. */
function filterSql(filter: Filter, spec?: CollectionSpec): { clauses: string[]; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const declared = new Set(spec?.indexes ?? []);
  for (const [field, condition] of Object.entries(filter)) {
    assertName(field);
    const expr = declared.has(field) ? `f_${field}` : `json_extract(doc, '$.${field}')`;
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

function toStored<T>(row: DocRow): StoredDocument<T> {
  return { id: row.id, workspaceId: row.workspace_id, seq: row.seq, version: row.version, doc: JSON.parse(row.doc) as T };
}
