import Database from './sqlite-driver';
import { openSharedFile } from './sqlite-open';
import { ApiKeyUsageStore } from '@app/application/ports';

/**
 * API keys' last use in `DATA_DIR/dashboard.db`, beside the dashboard's sessions: the dashboard is
 * its only reader. One transaction per flush, however many keys it carries.
 */
export class SqliteApiKeyUsageStore implements ApiKeyUsageStore {
  private readonly db: Database.Database;
  private readonly upsert: Database.Statement<[string, number]>;
  private readonly recordAll: (uses: ReadonlyMap<string, number>) => void;

  constructor(file: string) {
    this.db = openSharedFile(file);
    this.db.exec(
      'CREATE TABLE IF NOT EXISTS api_key_usage (key_id TEXT PRIMARY KEY, last_used_at INTEGER NOT NULL) WITHOUT ROWID',
    );
    this.upsert = this.db.prepare(
      `INSERT INTO api_key_usage (key_id, last_used_at) VALUES (?, ?)
       ON CONFLICT (key_id) DO UPDATE SET last_used_at = max(last_used_at, excluded.last_used_at)`,
    );
    this.recordAll = this.db.transaction((uses: ReadonlyMap<string, number>) => {
      for (const [keyId, at] of uses) this.upsert.run(keyId, at);
    });
  }

  async record(uses: ReadonlyMap<string, number>): Promise<void> {
    if (uses.size > 0) this.recordAll(uses);
  }

  async lastUsed(keyIds: readonly string[]): Promise<Map<string, number>> {
    const found = new Map<string, number>();
    if (keyIds.length === 0) return found;
    const rows = this.db
      .prepare(`SELECT key_id, last_used_at FROM api_key_usage WHERE key_id IN (${keyIds.map(() => '?').join(',')})`)
      .all(...keyIds) as { key_id: string; last_used_at: number }[];
    for (const row of rows) found.set(row.key_id, row.last_used_at);
    return found;
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
