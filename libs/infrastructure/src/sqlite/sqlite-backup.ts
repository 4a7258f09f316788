import Database from './sqlite-driver';

/**
 * SQLite's online backup of the database file `from` into the new file `to`, safe while other
 * processes read and write it. Every page is copied in one step, so the copy is one consistent
 * state of the database: a backup made in small steps starts again whenever another connection
 * writes between two of them, and under steady writes may never end. In WAL mode that one step
 * is a read, which never holds the writers up.
 */
export async function backUpSqliteFile(from: string, to: string): Promise<void> {
  const db = new Database(from, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    // The first step only starts the backup; the number answered is the next step's page count.
    await db.backup(to, { progress: () => 0x7fffffff });
  } finally {
    db.close();
  }
}
