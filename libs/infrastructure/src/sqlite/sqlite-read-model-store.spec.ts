import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from './sqlite-driver';
import { SqliteReadModelStore } from './sqlite-read-model-store';

/** What only the SQLite adapter promises (the behaviour every adapter shares is in test/contract). */
describe('SqliteReadModelStore list indexes', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rm-indexes-'));
    file = join(dir, 'read.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const indexesOf = (table: string) => {
    const db = new Database(file, { readonly: true });
    try {
      const rows = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?`).all(table);
      return (rows as { name: string }[]).map((r) => r.name).sort();
    } finally {
      db.close();
    }
  };

  const plan = (sql: string) => {
    const db = new Database(file, { readonly: true });
    try {
      return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('ws_1', 0, 51) as { detail: string }[]).map((r) => r.detail);
    } finally {
      db.close();
    }
  };

  it('reads a page (by workspace, and by workspace and field) off an index in order, without sorting rows', async () => {
    const store = new SqliteReadModelStore(file);
    await store.init([{ name: 'things', indexes: ['status'] }]);
    await store.close();

    for (const sql of [
      'SELECT seq, doc FROM rm_things WHERE workspace_id = ? AND seq > ? ORDER BY seq, id LIMIT ?',
      `SELECT seq, doc FROM rm_things WHERE workspace_id = ? AND f_status = 'open' AND seq > ? ORDER BY seq, id LIMIT ?`,
    ]) {
      const details = plan(sql);
      expect(details.join('; ')).toMatch(/USING INDEX rm_things_ws_(status_)?seq_id/);
      expect(details.join('; ')).not.toMatch(/TEMP B-TREE/);
    }
  });

  it('replaces the list indexes of a file made before they ended in id', async () => {
    const old = new Database(file);
    old.exec(`CREATE TABLE rm_things (id TEXT PRIMARY KEY, workspace_id TEXT, seq INTEGER NOT NULL,
      version INTEGER NOT NULL DEFAULT 0, doc TEXT NOT NULL,
      f_status ANY GENERATED ALWAYS AS (json_extract(doc, '$.status')) STORED)`);
    old.exec('CREATE INDEX rm_things_ws_seq ON rm_things (workspace_id, seq)');
    old.exec('CREATE INDEX rm_things_ws_status_seq ON rm_things (workspace_id, f_status, seq)');
    old.close();

    const store = new SqliteReadModelStore(file);
    await store.init([{ name: 'things', indexes: ['status'] }]);
    await store.close();

    expect(indexesOf('rm_things')).toEqual([
      'rm_things_status',
      'rm_things_ws_seq_id',
      'rm_things_ws_status_seq_id',
      'sqlite_autoindex_rm_things_1',
    ]);
  });
});
