import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from './sqlite-driver';
import type { WriteOp } from '@app/application/ports';
import { SqliteReadModelStore } from './sqlite-read-model-store';
import { eventLoopTurnsDuring } from '../../../../test/support/event-loop-turns';

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

  it('reads the audit feed newest first off an index, by actor or request within a workspace or across all', async () => {
    const store = new SqliteReadModelStore(file);
    await store.init([
      {
        name: 'audit_events',
        workspaceIndexes: ['type', 'actor.type'],
        orderedIndexes: ['actor.id', 'request_id'],
        listedAcrossWorkspaces: 'indexed',
      },
    ]);
    await store.close();
    expect(indexesOf('rm_audit_events')).toEqual(
      expect.arrayContaining([
        'rm_audit_events_seq_id',
        'rm_audit_events_actor__id_seq_id',
        'rm_audit_events_request_id_seq_id',
        'rm_audit_events_ws_actor__type_seq_id',
      ]),
    );
    const cases: [string, RegExp][] = [
      [
        `SELECT seq, doc FROM rm_audit_events WHERE workspace_id = ? AND f_actor__id = 'key_1' AND seq < ? ORDER BY seq DESC, id DESC LIMIT ?`,
        /USING INDEX rm_audit_events_actor__id_seq_id/,
      ],
      [
        `SELECT seq, doc FROM rm_audit_events WHERE (workspace_id = ? OR 1) AND f_request_id = 'r' AND seq > ? ORDER BY seq, id LIMIT ?`,
        /USING INDEX rm_audit_events_request_id_seq_id/,
      ],
      [
        `SELECT seq, doc FROM rm_audit_events WHERE (workspace_id = ? OR 1) AND seq < ? ORDER BY seq DESC, id DESC LIMIT ?`,
        /USING INDEX rm_audit_events_seq_id/,
      ],
    ];
    for (const [sql, index] of cases) {
      const details = plan(sql).join('; ');
      expect(details).toMatch(index);
      expect(details).not.toMatch(/TEMP B-TREE/);
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

  it('indexes a field declared within a workspace after the workspace only, also in a file that had it alone', async () => {
    const first = new SqliteReadModelStore(file);
    await first.init([{ name: 'things', indexes: ['status'] }]);
    await first.apply(
      [{ op: 'put', collection: 'things', id: 't1', workspaceId: 'ws_1', seq: 1, doc: { status: 'open' } }],
      {},
    );
    await first.close();

    const store = new SqliteReadModelStore(file);
    await store.init([{ name: 'things', workspaceIndexes: ['status'] }]);
    expect(await store.find('things', { workspaceId: 'ws_1', where: { status: 'open' }, limit: 5 })).toHaveLength(1);
    await store.close();

    expect(indexesOf('rm_things')).toEqual([
      'rm_things_ws_seq_id',
      'rm_things_ws_status_seq_id',
      'sqlite_autoindex_rm_things_1',
    ]);
    const details = plan(
      `SELECT seq, doc FROM rm_things WHERE workspace_id = ? AND f_status = 'open' AND seq > ? ORDER BY seq, id LIMIT ?`,
    );
    expect(details.join('; ')).toMatch(/USING INDEX rm_things_ws_status_seq_id/);
    expect(details.join('; ')).not.toMatch(/TEMP B-TREE/);
  });
});

describe('SqliteReadModelStore schema changes with the worker writer', () => {
  let dir: string;
  let file: string;
  let store: SqliteReadModelStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rm-schema-'));
    file = join(dir, 'read.db');
    store = new SqliteReadModelStore(file, { writer: 'worker' });
  });
  // Closed here, also after a failed expectation: its writer thread would keep jest running.
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const fill = (collection: string, n: number): WriteOp[] =>
    Array.from({ length: n }, (_, i) => ({
      op: 'put' as const,
      collection,
      id: `t${i}`,
      workspaceId: 'ws_1',
      seq: i + 1,
      doc: { name: `thing ${i}`, status: i % 2 ? 'open' : 'done' },
    }));

  it('swaps a collection in and drops one on the writer thread, while the event loop turns', async () => {
    // Building the indexes of a large swapped-in collection, or dropping a large table, took about
    // a second at a million events on the API's event loop.
    await store.init([{ name: 'things', indexes: ['status'] }]);
    await store.init([{ name: 'things__next', indexes: ['status'] }], { bulkLoad: true });
    await store.apply(fill('things__next', 20_000), {});
    await store.apply(fill('things', 10), { things: 10 });

    expect(
      await eventLoopTurnsDuring(() => store.swap([{ from: 'things__next', to: 'things' }], { things: 20_000 }, [])),
    ).toBeGreaterThan(0);
    expect(await store.getCheckpoints()).toEqual({ things: 20_000 });
    expect((await store.get('things', 't19999'))?.doc).toEqual({ name: 'thing 19999', status: 'open' });
    const page = await store.find('things', {
      workspaceId: 'ws_1',
      where: { status: 'done' },
      afterSeq: 100,
      limit: 2,
    });
    expect(page.map((d) => d.id)).toEqual(['t100', 't102']);
    // Written to after the swap, through statements prepared anew.
    await store.apply([{ op: 'merge', collection: 'things', id: 't0', set: { status: 'open' } }], { things: 20_001 });
    expect((await store.get('things', 't0'))?.doc).toEqual({ name: 'thing 0', status: 'open' });

    await store.init([{ name: 'things__verify', indexes: ['status'] }], { bulkLoad: true });
    await store.apply(fill('things__verify', 20_000), { things__verify: 20_000 });
    expect(await eventLoopTurnsDuring(() => store.drop(['things__verify'], ['things__verify']))).toBeGreaterThan(0);
    expect(await store.getCheckpoints()).toEqual({ things: 20_001 });

    const db = new Database(file, { readonly: true });
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'rm_%'`).all();
    const indexes = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'rm_things'`).all();
    db.close();
    expect(tables).toEqual([{ name: 'rm_things' }]);
    expect((indexes as { name: string }[]).map((r) => r.name).sort()).toEqual([
      'rm_things_status',
      'rm_things_ws_seq_id',
      'rm_things_ws_status_seq_id',
      'sqlite_autoindex_rm_things_1',
    ]);
  });
});
