import Database from './sqlite-driver';

/**
 * Opens the SQLite file of a store that many connections share: WAL (readers never wait for the
 * writer), `synchronous=NORMAL` (in WAL mode a power cut loses at most the newest transactions,
 * whole; each store says why that is enough for it) and up to 5 s of waiting for another writer.
 */
export function openSharedFile(file: string): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  return db;
}
