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
 *
 * With the embedded event store's file as well, a `{ build: maxCount }` request builds the next
 * batch by itself: it reads the events after the stored checkpoint (their data and metadata as the
 * bytes the file holds), hashes their leaves and extends the tree with the ledger's own code
 * (merkle-core.js), and writes leaves and state in the same kind of transaction, answering
 * `{ appended, size, checkpoint, frontier }`. Reading, hashing and writing then all leave the
 * API's event loop.
 */
const Database = require('./sqlite-driver');
const { isMainThread, workerData } = require('node:worker_threads');
const { eventLeafHash, Frontier } = require('../../../application/src/ledger/merkle-core');

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

/** Builds the next batches of the log on `db` from the events of `events` (see above). */
function openLedgerBuilder(db, events) {
  const state = db.prepare('SELECT size, checkpoint, frontier FROM ledger_state').raw();
  const insertLeaf = db.prepare('INSERT INTO ledger_leaves (idx, position, event_id, hash) VALUES (?, ?, ?, ?)');
  const putState = db.prepare(
    `INSERT INTO ledger_state (id, size, checkpoint, frontier) VALUES (1, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET size = excluded.size, checkpoint = excluded.checkpoint, frontier = excluded.frontier`,
  );
  // The LIMIT is written into the text (sqlite-limit.ts says why); one statement per batch size.
  const reads = new Map();
  const read = (maxCount) => {
    let statement = reads.get(maxCount);
    if (!statement) {
      statement = events
        .prepare(
          `SELECT position, stream_id, revision, event_id, type, schema_version, CAST(data AS BLOB), CAST(metadata AS BLOB)
           FROM events WHERE position > ? ORDER BY position LIMIT ${Math.floor(maxCount)}`,
        )
        .raw();
      reads.set(maxCount, statement);
    }
    return statement;
  };
  const run = db.transaction((maxCount) => {
    const [size, checkpoint, stored] = state.get() ?? [0, 0, '[]'];
    const rows = read(maxCount).all(checkpoint);
    if (rows.length === 0) return { appended: 0, size, checkpoint, frontier: stored };
    const frontier = Frontier.of(
      size,
      JSON.parse(stored).map((hex) => Buffer.from(hex, 'hex')),
    );
    for (const row of rows) {
      const event = {
        position: row[0],
        streamId: row[1],
        revision: row[2],
        id: row[3],
        type: row[4],
        schemaVersion: row[5],
        data: row[6],
        metadata: row[7],
      };
      const hash = eventLeafHash(event);
      insertLeaf.run(frontier.size, event.position, event.id, hash);
      frontier.append(hash);
    }
    const next = {
      appended: rows.length,
      size: frontier.size,
      checkpoint: rows[rows.length - 1][0],
      frontier: JSON.stringify(frontier.subtrees.map((h) => h.toString('hex'))),
    };
    putState.run(next.size, next.checkpoint, next.frontier);
    return next;
  });
  return { build: (maxCount) => run.immediate(maxCount) };
}

/** A connection to the event store's file that only reads. */
function openEventsReader(file) {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  return db;
}

/** A connection of its own to the ledger's file, configured as the store's. */
function openLedgerWriter(file, eventsFile) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  // This connection only appends: the pages it walks (the indexes' last leaves) fit in 2 MB.
  db.pragma('cache_size = -2000');
  const events = eventsFile ? openEventsReader(eventsFile) : null;
  const appender = openLedgerAppender(db);
  const builder = events ? openLedgerBuilder(db, events) : null;
  return {
    handle: (request) => {
      if (request.build === undefined) return appender.append(request);
      if (!builder) throw new Error('this writer was opened without the event store to build from');
      return builder.build(request.build);
    },
    close: () => {
      events?.close();
      db.close();
    },
  };
}

module.exports = { HASH_BYTES, openEventsReader, openLedgerAppender, openLedgerBuilder };

if (!isMainThread && workerData && workerData.ledgerFile) {
  const { serveRequests } = require('./sqlite-worker-serve');
  const writer = openLedgerWriter(workerData.ledgerFile, workerData.eventsFile);
  serveRequests(writer.handle, writer.close);
}
