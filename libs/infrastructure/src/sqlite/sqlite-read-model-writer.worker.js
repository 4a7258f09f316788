'use strict';
/**
 * The write side of the embedded read models, in plain JavaScript so that the same file runs in a
 * worker thread (the service's default: a batch's index updates and commit never hold up the
 * API's event loop) and inline on the reading connection (one-shot tools, `:memory:` files).
 *
 * A write is `{ sqls, steps }`, its steps run in one IMMEDIATE transaction (all or nothing).
 * `steps` is one flat array (cheap to hand to the thread: no array per step), of
 * - `sql, n, ...params`: the statement `sqls[sql]` (prepared once per text) run with n params;
 * - `MERGE_IN_JS, selectSql, updateSql, id, set, version`: a document's fields set by
 *   read-modify-write (for field names a JSON path cannot carry; see the store's `merge`).
 * Each text is sent once per write, not once per step. The reading connection builds the steps,
 * so this side knows no collection or schema.
 */
const Database = require('./sqlite-driver');
const { isMainThread, workerData } = require('node:worker_threads');

const MERGE_IN_JS = -1;

function openStepWriter(db) {
  const statements = new Map();
  const prepared = (sql) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  // Write transactions begin IMMEDIATE: several processes may share the file, and a deferred
  // transaction that reads first cannot wait for the write lock when it upgrades (SQLITE_BUSY at
  // once, "database is locked"); an immediate one waits for it under busy_timeout.
  const run = db.transaction(({ sqls, steps }) => {
    for (let i = 0; i < steps.length;) {
      if (steps[i] === MERGE_IN_JS) {
        const [, selectSql, updateSql, id, set, version] = steps.slice(i, (i += 6));
        const row = prepared(sqls[selectSql]).get(id);
        if (row)
          prepared(sqls[updateSql]).run(JSON.stringify({ ...JSON.parse(row.doc), ...set }), version ?? row.version, id);
      } else {
        const statement = prepared(sqls[steps[i]]);
        const count = steps[i + 1];
        statement.run(...steps.slice(i + 2, (i += 2 + count)));
      }
    }
  });
  return {
    write: (write) => {
      run.immediate(write);
      return null;
    },
  };
}

/** A connection of its own to the read models' file, configured as the store's. */
function openReadModelWriter(file) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  // A page cache of 2 MB, not the driver's 16: this connection only writes, and the pages a write
  // walks (the indexes' upper levels, the tables' last leaves) fit; the reading connection keeps
  // the large cache the queries use.
  db.pragma('cache_size = -2000');
  return { ...openStepWriter(db), close: () => db.close() };
}

module.exports = { MERGE_IN_JS, openStepWriter };

if (!isMainThread && workerData && workerData.readModelFile) {
  const { serveRequests } = require('./sqlite-worker-serve');
  const writer = openReadModelWriter(workerData.readModelFile);
  serveRequests(writer.write, writer.close);
}
