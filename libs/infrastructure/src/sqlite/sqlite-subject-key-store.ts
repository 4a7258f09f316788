import Database from './sqlite-driver';
import { randomBytes } from 'node:crypto';
import { SubjectKeyStore } from '@app/application/ports';

/**
 * Crypto-shredding keys in their own SQLite file (DATA_DIR/keys.db), apart from the events they
 * protect: back it up with them, and keep it out of anything shipped for analysis.
 * A destroyed key is overwritten (secure_delete) and leaves a tombstone, so a destroyed subject is
 * never silently given a new key; the WAL is checkpointed so no old page keeps the bytes.
 */
export class SqliteSubjectKeyStore implements SubjectKeyStore {
  private readonly db: Database.Database;
  private readonly select: Database.Statement<[string], { key: Buffer | null }>;
  private readonly insert: Database.Statement<[string, Buffer]>;
  private readonly wipe: Database.Statement<[number, string]>;
  private readonly tombstone: Database.Statement<[string, number]>;

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('secure_delete = ON');
    this.db.exec(
      'CREATE TABLE IF NOT EXISTS subject_keys (subject_id TEXT PRIMARY KEY, key BLOB, destroyed_at INTEGER)',
    );
    this.select = this.db.prepare('SELECT key FROM subject_keys WHERE subject_id = ?');
    this.insert = this.db.prepare(
      'INSERT INTO subject_keys (subject_id, key) VALUES (?, ?) ON CONFLICT (subject_id) DO NOTHING',
    );
    this.wipe = this.db.prepare('UPDATE subject_keys SET key = NULL, destroyed_at = ? WHERE subject_id = ?');
    this.tombstone = this.db.prepare(
      'INSERT INTO subject_keys (subject_id, key, destroyed_at) VALUES (?, NULL, ?) ON CONFLICT (subject_id) DO NOTHING',
    );
  }

  async getOrCreate(subjectId: string): Promise<Buffer | null> {
    this.insert.run(subjectId, randomBytes(32));
    return this.select.get(subjectId)?.key ?? null;
  }

  async get(subjectId: string): Promise<Buffer | null> {
    return this.select.get(subjectId)?.key ?? null;
  }

  async destroy(subjectId: string): Promise<void> {
    const now = Date.now();
    this.db.transaction(() => {
      this.wipe.run(now, subjectId);
      this.tombstone.run(subjectId, now);
    })();
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
