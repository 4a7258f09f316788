import { setTimeout as sleep } from 'node:timers/promises';
import Database from './sqlite-driver';

/** The lock is held by another process, or by another holder in this one. */
export class LockHeldError extends Error {
  constructor(readonly file: string) {
    super(`${file} is locked by another process`);
    this.name = 'LockHeldError';
  }
}

export interface LockOptions {
  /** How long to keep trying while another holder has it (ms; default 0: one try). */
  waitMs?: number;
  /** The pause between tries (ms; default 100). */
  retryMs?: number;
  /** Called once, when the first try finds the lock held and a wait begins. */
  onWait?: () => void;
}

/**
 * An exclusive lock on a file for as long as its holder keeps it: an empty SQLite database held in
 * an exclusive transaction that never ends. It is SQLite's own file locking, the POSIX advisory
 * locks the databases beside it rely on, so the operating system drops it when the holding process
 * ends however it ends (kill -9 included): a lock never outlives its holder, and there is no stale
 * lock to clear by hand. Two holders in one process exclude each other too (SQLite tracks its
 * locks per file within a process).
 *
 * The file is never put in WAL mode: in its default rollback-journal mode an exclusive transaction
 * keeps every other connection out, readers included, for as long as it lasts.
 */
export class SqliteProcessLock {
  private released = false;

  private constructor(
    readonly file: string,
    private readonly db: Database.Database,
  ) {}

  static async acquire(file: string, options: LockOptions = {}): Promise<SqliteProcessLock> {
    const deadline = Date.now() + (options.waitMs ?? 0);
    for (let attempt = 0; ; attempt++) {
      const db = tryLock(file);
      if (db) return new SqliteProcessLock(file, db);
      if (Date.now() >= deadline) throw new LockHeldError(file);
      if (attempt === 0) options.onWait?.();
      await sleep(options.retryMs ?? 100);
    }
  }

  /** Lets the next holder in. Idempotent. */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.db.close(); // closing ends the transaction and drops the lock
  }
}

/** The open, locked connection; null when another holder has the lock. */
function tryLock(file: string): Database.Database | null {
  // timeout 0: a lock held elsewhere is reported at once (the driver would otherwise wait 5 s, blocking).
  const db = new Database(file, { timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    return db;
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') return null;
    throw error;
  }
}
