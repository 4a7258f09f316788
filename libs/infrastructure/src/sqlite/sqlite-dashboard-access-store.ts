import Database from './sqlite-driver';
import { openSharedFile } from './sqlite-open';
import { DashboardAccessStore, DashboardLinkRecord, DashboardSessionRecord } from '@app/application/ports';

interface LinkRow {
  token_hash: string;
  workspace_id: string;
  member_id: string;
  expires_at: number;
}

interface SessionRow {
  id_hash: string;
  workspace_id: string;
  member_id: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
}

const toSession = (row: SessionRow): DashboardSessionRecord => ({
  idHash: row.id_hash,
  workspaceId: row.workspace_id,
  memberId: row.member_id,
  createdAt: row.created_at,
  lastSeenAt: row.last_seen_at,
  expiresAt: row.expires_at,
});

/**
 * Dashboard sign-in links and sessions in `DATA_DIR/dashboard.db`: a file of their own, as they
 * are neither events nor read models (nothing replays them) and every process of a deployment
 * sharing DATA_DIR must see every session. WAL with `synchronous=NORMAL`: a power cut may lose the
 * newest link or session, which costs one more sign-in, never a wrong one.
 *
 * A link is consumed by one `DELETE ... RETURNING`: SQLite runs it as one write, so of concurrent
 * consumptions (in any process) one gets the row.
 */
export class SqliteDashboardAccessStore implements DashboardAccessStore {
  private readonly db: Database.Database;
  private readonly stmt: {
    saveLink: Database.Statement;
    consumeLink: Database.Statement<[string], LinkRow>;
    createSession: Database.Statement;
    findSession: Database.Statement<[string], SessionRow>;
    touchSession: Database.Statement<[number, string, number]>;
    deleteSession: Database.Statement<[string]>;
    purgeLinks: Database.Statement<[number]>;
    purgeSessions: Database.Statement<[number, number]>;
  };

  constructor(file: string) {
    this.db = openSharedFile(file);
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS dashboard_links (
        token_hash TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL,
        member_id TEXT NOT NULL,
        expires_at INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS dashboard_sessions (
        id_hash TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL,
        member_id TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        last_seen_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      ) WITHOUT ROWID;
    `);
    this.stmt = {
      saveLink: this.db.prepare(
        'INSERT INTO dashboard_links (token_hash, workspace_id, member_id, expires_at) VALUES (@tokenHash, @workspaceId, @memberId, @expiresAt)',
      ),
      consumeLink: this.db.prepare(
        'DELETE FROM dashboard_links WHERE token_hash = ? RETURNING token_hash, workspace_id, member_id, expires_at',
      ),
      createSession: this.db.prepare(
        `INSERT INTO dashboard_sessions (id_hash, workspace_id, member_id, created_at, last_seen_at, expires_at)
         VALUES (@idHash, @workspaceId, @memberId, @createdAt, @lastSeenAt, @expiresAt)`,
      ),
      findSession: this.db.prepare(
        'SELECT id_hash, workspace_id, member_id, created_at, last_seen_at, expires_at FROM dashboard_sessions WHERE id_hash = ?',
      ),
      touchSession: this.db.prepare(
        'UPDATE dashboard_sessions SET last_seen_at = ? WHERE id_hash = ? AND last_seen_at < ?',
      ),
      deleteSession: this.db.prepare('DELETE FROM dashboard_sessions WHERE id_hash = ?'),
      purgeLinks: this.db.prepare('DELETE FROM dashboard_links WHERE expires_at <= ?'),
      purgeSessions: this.db.prepare('DELETE FROM dashboard_sessions WHERE expires_at <= ? OR last_seen_at <= ?'),
    };
  }

  async saveLink(link: DashboardLinkRecord): Promise<void> {
    this.stmt.saveLink.run(link);
  }

  async consumeLink(tokenHash: string, now: number): Promise<DashboardLinkRecord | null> {
    const row = this.stmt.consumeLink.get(tokenHash);
    if (!row || row.expires_at <= now) return null;
    return {
      tokenHash: row.token_hash,
      workspaceId: row.workspace_id,
      memberId: row.member_id,
      expiresAt: row.expires_at,
    };
  }

  async createSession(session: DashboardSessionRecord): Promise<void> {
    this.stmt.createSession.run(session);
  }

  async findSession(idHash: string, now: number, idleMs: number): Promise<DashboardSessionRecord | null> {
    const row = this.stmt.findSession.get(idHash);
    if (!row || row.expires_at <= now || row.last_seen_at + idleMs <= now) return null;
    return toSession(row);
  }

  async touchSession(idHash: string, lastSeenAt: number): Promise<void> {
    this.stmt.touchSession.run(lastSeenAt, idHash, lastSeenAt);
  }

  async deleteSession(idHash: string): Promise<void> {
    this.stmt.deleteSession.run(idHash);
  }

  async purgeExpired(now: number, idleMs: number): Promise<number> {
    return this.db.transaction(
      () => this.stmt.purgeLinks.run(now).changes + this.stmt.purgeSessions.run(now, now - idleMs).changes,
    )();
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
