import Database from './sqlite-driver';
import { openSharedFile } from './sqlite-open';
import { ClaimResult, IdempotencyClaim, IdempotencyStore, StoredResponse } from '@app/application/ports';

interface RecordRow {
  fingerprint: string;
  state: 'in_progress' | 'completed';
  locked_until: number;
  expires_at: number;
  status: number | null;
  headers: string | null;
  body: string | null;
}

/**
 * Idempotency records in their own SQLite file (`DATA_DIR/idempotency.db`), apart from the event
 * store so that their churn never competes with event appends.
 *
 * Claims run in `BEGIN IMMEDIATE` transactions, so they are atomic even when several processes
 * open the same file. The file runs in WAL mode with `synchronous=NORMAL`: a process crash loses
 * nothing; a power cut may lose the newest records, after which a retry of such a request runs
 * again. Records are a deduplication aid with a 24-hour life, not the source of truth, and an
 * fsync per record would cost more than that risk is worth.
 */
export class SqliteIdempotencyStore implements IdempotencyStore {
  private readonly db: Database.Database;
  private readonly stmt: {
    get: Database.Statement<[string, string], RecordRow>;
    put: Database.Statement;
    complete: Database.Statement;
    release: Database.Statement;
    purge: Database.Statement<[number]>;
  };
  private readonly claimTx: (claim: IdempotencyClaim) => ClaimResult;

  constructor(file: string) {
    this.db = openSharedFile(file);
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS idempotency_records (
        scope TEXT NOT NULL,
        key TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('in_progress', 'completed')),
        owner TEXT,
        locked_until INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        status INTEGER,
        headers TEXT,
        body TEXT,
        PRIMARY KEY (scope, key)
      ) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS idempotency_records_expiry ON idempotency_records (expires_at);
    `);
    this.stmt = {
      get: this.db.prepare(
        'SELECT fingerprint, state, locked_until, expires_at, status, headers, body FROM idempotency_records WHERE scope = ? AND key = ?',
      ),
      put: this.db.prepare(
        `INSERT OR REPLACE INTO idempotency_records
           (scope, key, fingerprint, state, owner, locked_until, expires_at, status, headers, body)
         VALUES (@scope, @key, @fingerprint, 'in_progress', @owner, @lockedUntil, @expiresAt, NULL, NULL, NULL)`,
      ),
      complete: this.db.prepare(
        `UPDATE idempotency_records SET state = 'completed', owner = NULL, status = ?, headers = ?, body = ?
         WHERE scope = ? AND key = ? AND owner = ? AND state = 'in_progress'`,
      ),
      release: this.db.prepare(
        "DELETE FROM idempotency_records WHERE scope = ? AND key = ? AND owner = ? AND state = 'in_progress'",
      ),
      purge: this.db.prepare('DELETE FROM idempotency_records WHERE expires_at <= ?'),
    };
    const claim = this.db.transaction((c: IdempotencyClaim): ClaimResult => {
      const row = this.stmt.get.get(c.scope, c.key);
      const free = !row || row.expires_at <= c.now || (row.state === 'in_progress' && row.locked_until <= c.now);
      if (free) {
        this.stmt.put.run(c);
        return { outcome: 'claimed' };
      }
      if (row.state === 'completed') {
        return {
          outcome: 'completed',
          fingerprint: row.fingerprint,
          response: { status: row.status!, headers: JSON.parse(row.headers ?? '{}'), body: row.body ?? '' },
        };
      }
      return { outcome: 'in_progress', fingerprint: row.fingerprint };
    });
    this.claimTx = (c) => claim.immediate(c);
  }

  async claim(claim: IdempotencyClaim): Promise<ClaimResult> {
    return this.claimTx(claim);
  }

  async complete(scope: string, key: string, owner: string, response: StoredResponse): Promise<boolean> {
    const result = this.stmt.complete.run(
      response.status,
      JSON.stringify(response.headers),
      response.body,
      scope,
      key,
      owner,
    );
    return result.changes === 1;
  }

  async release(scope: string, key: string, owner: string): Promise<void> {
    this.stmt.release.run(scope, key, owner);
  }

  async purgeExpired(now: number): Promise<number> {
    return this.stmt.purge.run(now).changes;
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
