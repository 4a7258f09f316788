'use strict';
/**
 * The write side of the embedded event store, kept in plain JavaScript so that the same file
 * runs in a worker thread (the default: an fsync then never blocks the API's event loop) and
 * inline (`require`d by the adapter), from the TypeScript sources under jest and from dist alike.
 *
 * A batch of groups is written in one IMMEDIATE transaction (one fsync with synchronous=FULL). A
 * group is the appends of one caller: one stream, or several streams that must change together
 * (a project and its workspace's slot count). Each group runs in a savepoint: a wrong expected
 * revision on any of its streams undoes that group alone, and the rest of the batch is written.
 */
const Database = require('./sqlite-driver');
const { isMainThread, workerData } = require('node:worker_threads');
const { randomUUID } = require('node:crypto');

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS events (
    position       INTEGER PRIMARY KEY AUTOINCREMENT,
    stream_id      TEXT    NOT NULL,
    revision       INTEGER NOT NULL,
    event_id       TEXT    NOT NULL UNIQUE,
    type           TEXT    NOT NULL,
    schema_version INTEGER NOT NULL,
    data           TEXT    NOT NULL,
    metadata       TEXT    NOT NULL,
    UNIQUE (stream_id, revision)
  );
  -- Which store this is (EventStoreIdentity): one row, made with the file.
  CREATE TABLE IF NOT EXISTS store (id TEXT NOT NULL);
`;

function openWriter(file) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  // Statement and savepoint journals in memory. Within a batch's transaction SQLite keeps the
  // pages that an insert or a group's savepoint changes, so as to undo it alone. Past 64 KB that
  // journal goes to a temporary file, created, written and deleted again and again under load. It
  // only serves a rollback within the open transaction, which a crash discards anyway: memory
  // loses nothing.
  db.pragma('temp_store = MEMORY');
  // A page cache of 4 MB, not the driver's 16: appends touch the table's last leaves and one leaf
  // of each index. Random event ids (all of them before ids were time-ordered) spread over the
  // unique index and filled all 16 MB within minutes of load (measured: 25 MB of the service's
  // resident memory), as updates to older streams still spread over the stream index, for pages
  // the OS keeps cached anyway.
  db.pragma('cache_size = -4000');
  db.exec(SCHEMA);
  // One statement: of processes opening a new file together, one inserts and the others find it.
  db.prepare('INSERT INTO store (id) SELECT ? WHERE NOT EXISTS (SELECT 1 FROM store)').run(randomUUID());
  const lastRevision = db.prepare('SELECT max(revision) AS revision FROM events WHERE stream_id = ?');
  const byEventId = db.prepare('SELECT stream_id, revision, position FROM events WHERE event_id = ?');
  const head = db.prepare('SELECT max(position) AS position FROM events');
  const insert = db.prepare(
    `INSERT INTO events (stream_id, revision, event_id, type, schema_version, data, metadata)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );

  const conflict = (streamId, expected, actual) => ({ conflict: { streamId, expected, actual } });
  /**
   * What the current batch inserted, as numbers only: for each append written, its group's and
   * its own index, its first event's revision, and each event's position. The caller holds the
   * rest of each row (stream, ids, types, the JSON texts), so its subscriptions get its own
   * appends without reading them again and without their texts coming back through the channel.
   */
  let written = [];

  /** A retry of an append whose events are already in the stream succeeds without writing. */
  function replay(streamId, events, expected, current) {
    if (events.length === 0) return null;
    const found = events.map((e) => byEventId.get(e.id));
    if (found.every((f) => f === undefined)) return null;
    const first = found[0];
    const contiguous =
      first !== undefined &&
      found.every((f, i) => f !== undefined && f.stream_id === streamId && f.revision === first.revision + i);
    const sameStart =
      expected === 'any' ||
      (expected === 'no_stream' && first && first.revision === 0) ||
      (typeof expected === 'number' && first && first.revision === expected + 1);
    if (!contiguous || !sameStart) return conflict(streamId, expected, current);
    const last = found[found.length - 1];
    return { ok: { nextRevision: last.revision, position: last.position } };
  }

  function appendOne({ streamId, events, expectedRevision: expected }, group, index) {
    const last = lastRevision.get(streamId).revision;
    const current = last === null ? 'no_stream' : last;
    const replayed = replay(streamId, events, expected, current);
    if (replayed) return replayed;
    const matches =
      expected === 'any' ||
      (expected === 'no_stream' && current === 'no_stream') ||
      (typeof expected === 'number' && current === expected);
    if (!matches) return conflict(streamId, expected, current);
    if (events.length === 0)
      return { ok: { nextRevision: last === null ? -1 : last, position: head.get().position || 0 } };
    let revision = last === null ? -1 : last;
    let position = 0;
    written.push(group, index, revision + 1, events.length);
    for (const e of events) {
      revision += 1;
      const info = insert.run(streamId, revision, e.id, e.type, e.schemaVersion, e.data, e.metadata);
      position = Number(info.lastInsertRowid);
      written.push(position);
    }
    return { ok: { nextRevision: revision, position } };
  }

  /** Thrown inside a group's savepoint to roll the group back; carries the conflict out. */
  class GroupConflict extends Error {
    constructor(outcome) {
      super('conflict');
      this.outcome = outcome;
    }
  }
  // Called inside the batch transaction, better-sqlite3 runs this as a SAVEPOINT: a throw rolls
  // back this group's rows only.
  const writeGroupInSavepoint = db.transaction((appends, group) =>
    appends.map((append, index) => {
      const outcome = appendOne(append, group, index);
      if (outcome.conflict) throw new GroupConflict(outcome);
      return outcome.ok;
    }),
  );

  function writeGroup(appends, group) {
    // A single append checks its revision before writing anything: no savepoint needed.
    if (appends.length === 1) {
      const outcome = appendOne(appends[0], group, 0);
      return outcome.conflict ? outcome : { ok: [outcome.ok] };
    }
    const mark = written.length;
    try {
      return { ok: writeGroupInSavepoint(appends, group) };
    } catch (error) {
      written.length = mark; // rolled back with the savepoint
      if (error instanceof GroupConflict) return error.outcome;
      throw error;
    }
  }

  const writeBatch = db.transaction((groups) => {
    written = [];
    return { outcomes: groups.map(writeGroup), written };
  });

  return {
    /**
     * `groups`: arrays of appends, each event's data and metadata as JSON text. Returns one
     * outcome per group, { ok: [result per append] } or { conflict } (nothing of that group
     * written), and what was written (`written`, above), in position order; throws if the
     * transaction failed (nothing written).
     */
    write: (groups) => writeBatch.immediate(groups),
    close: () => db.close(),
  };
}

module.exports = { openWriter };

if (!isMainThread && workerData && workerData.eventStoreFile) {
  const { serveRequests } = require('./sqlite-worker-serve');
  const writer = openWriter(workerData.eventStoreFile);
  serveRequests(writer.write, writer.close);
}
