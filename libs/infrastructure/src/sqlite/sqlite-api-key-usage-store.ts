import Database from './sqlite-driver';
import { openSharedFile } from './sqlite-open';
import { ApiKeyUsageStore, DailyRequests, dayOf, firstDayKept } from '@app/application/ports';

/**
 * API keys' last use and requests per day in `DATA_DIR/dashboard.db`, beside the dashboard's
 * sessions: the dashboard is their only reader. One transaction per flush, however many keys it
 * carries; a day's count is one row per key, added to by each flush of that day.
 */
export class SqliteApiKeyUsageStore implements ApiKeyUsageStore {
  private readonly db: Database.Database;
  private readonly upsert: Database.Statement<[string, number]>;
  private readonly addRequests: Database.Statement<[string, number, number]>;
  private readonly dropDaysBefore: Database.Statement<[number]>;
  private readonly recordAll: (uses: ReadonlyMap<string, number>, requests: ReadonlyMap<string, number>) => void;

  constructor(file: string) {
    this.db = openSharedFile(file);
    this.db.exec(
      'CREATE TABLE IF NOT EXISTS api_key_usage (key_id TEXT PRIMARY KEY, last_used_at INTEGER NOT NULL) WITHOUT ROWID',
    );
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS api_key_daily_requests (
         key_id TEXT NOT NULL, day INTEGER NOT NULL, requests INTEGER NOT NULL, PRIMARY KEY (key_id, day)
       ) WITHOUT ROWID`,
    );
    this.addRequests = this.db.prepare(
      `INSERT INTO api_key_daily_requests (key_id, day, requests) VALUES (?, ?, ?)
       ON CONFLICT (key_id, day) DO UPDATE SET requests = requests + excluded.requests`,
    );
    this.db.exec('CREATE INDEX IF NOT EXISTS api_key_daily_requests_day ON api_key_daily_requests (day)');
    this.dropDaysBefore = this.db.prepare('DELETE FROM api_key_daily_requests WHERE day < ?');
    this.upsert = this.db.prepare(
      `INSERT INTO api_key_usage (key_id, last_used_at) VALUES (?, ?)
       ON CONFLICT (key_id) DO UPDATE SET last_used_at = max(last_used_at, excluded.last_used_at)`,
    );
    this.recordAll = this.db.transaction((uses: ReadonlyMap<string, number>, requests: ReadonlyMap<string, number>) => {
      let latest = 0;
      for (const [keyId, at] of uses) {
        this.upsert.run(keyId, at);
        const count = requests.get(keyId);
        if (count) this.addRequests.run(keyId, dayOf(at), count);
        latest = Math.max(latest, at);
      }
      this.dropDaysBefore.run(firstDayKept(latest));
    });
  }

  async record(uses: ReadonlyMap<string, number>, requests: ReadonlyMap<string, number> = new Map()): Promise<void> {
    if (uses.size > 0) this.recordAll(uses, requests);
  }

  async dailyRequests(keyIds: readonly string[], sinceDay: number): Promise<DailyRequests[]> {
    if (keyIds.length === 0) return [];
    const rows = this.db
      .prepare(
        `SELECT key_id, day, requests FROM api_key_daily_requests
         WHERE key_id IN (${keyIds.map(() => '?').join(',')}) AND day >= ? ORDER BY key_id, day`,
      )
      .all(...keyIds, sinceDay) as { key_id: string; day: number; requests: number }[];
    return rows.map((row) => ({ keyId: row.key_id, day: row.day, requests: row.requests }));
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
