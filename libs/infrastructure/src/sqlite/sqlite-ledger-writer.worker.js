'use strict';
/**
 * The write side of the embedded ledger (DATA_DIR/ledger.db), in plain JavaScript so that the same
 * file runs in a worker thread (the projector's: a batch's inserts, index updates and commit never
 * hold up the API's event loop) and inline on the store's own connection (tools, tests).
 *
 * An append is `{ first, hashes, positions, eventIds, size, checkpoint, frontier }`: the leaves
 * `first`, `first + 1`, ... with their 32-byte hashes end to end in `hashes` (one buffer crosses to
 * the thread, not one per leaf), their events' positions and ids, then the state after them
 * (`frontier` as the JSON text of the subtree roots' hex). It runs in one IMMEDIATE transaction
 * that first checks the stored size is `first`, and answers null, or `{ conflict: storedSize }`
 * writing nothing: the store turns that into its LedgerConflictError.
 */
const Database = require('./sqlite-driver');
const { isMainThread, workerData } = require('node:worker_threads');

const HASH_BYTES = 32;

function openLedgerAppender(db) {
  const size = db.prepare('SELECT size FROM ledger_state').pluck();
  const insertLeaf = db.prepare('INSERT INTO ledger_leaves (idx, position, event_id, hash) VALUES (?, ?, ?, ?)');
  const putState = db.prepare(
    `INSERT INTO ledger_state (id, size, checkpoint, frontier) VALUES (1, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET size = excluded.size, checkpoint = excluded.checkpoint, frontier = excluded.frontier`,
  );
  const run = db.transaction((append) => {
    const stored = size.get() ?? 0;
    const count = append.eventIds.length;
    if (append.first !== stored || append.size !== append.first + count) return { conflict: stored };
    const hashes = Buffer.from(append.hashes.buffer, append.hashes.byteOffset, append.hashes.byteLength);
    for (let i = 0; i < count; i++) {
      insertLeaf.run(
        append.first + i,
        append.positions[i],
        append.eventIds[i],
        hashes.subarray(i * HASH_BYTES, (i + 1) * HASH_BYTES),
      );
    }
    putState.run(append.size, append.checkpoint, append.frontier);
    return null;
  });
  return { append: (append) => run.immediate(append) };
}

/** A connection of its own to the ledger's file, configured as the store's. */
function openLedgerWriter(file) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  // This connection only appends: the pages it walks (the indexes' last leaves) fit in 2 MB.
  db.pragma('cache_size = -2000');
  return { ...openLedgerAppender(db), close: () => db.close() };
}

module.exports = { HASH_BYTES, openLedgerAppender };

if (!isMainThread && workerData && workerData.ledgerFile) {
  const { serveRequests } = require('./sqlite-worker-serve');
  const writer = openLedgerWriter(workerData.ledgerFile);
  serveRequests(writer.append, writer.close);
}
