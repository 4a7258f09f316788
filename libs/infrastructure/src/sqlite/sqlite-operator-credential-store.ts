import Database from './sqlite-driver';
import { openSharedFile } from './sqlite-open';
import { OperatorCredentialRecord, OperatorCredentialStore, OperatorRole } from '@app/application/ports';

interface Row {
  id: string;
  name: string;
  role: OperatorRole;
  token_hash: string;
  created_at: number;
  revoked_at: number | null;
}

const COLUMNS = 'id, name, role, token_hash, created_at, revoked_at';

const toRecord = (row: Row): OperatorCredentialRecord => ({
  id: row.id,
  name: row.name,
  role: row.role,
  tokenHash: row.token_hash,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
});

/**
 * Operator credentials in `DATA_DIR/operators.db`, shared by every process of the deployment
 * (each reads it on every request that presents a credential). `synchronous=FULL`: writes are
 * rare, and a revocation that was answered must survive a power cut (under NORMAL, WAL may lose the
 * newest transactions, and a revoked credential would work again). The digest has a unique index,
 * the only lookup made per request.
 */
export class SqliteOperatorCredentialStore implements OperatorCredentialStore {
  private readonly db: Database.Database;
  private readonly stmt: {
    create: Database.Statement;
    byHash: Database.Statement<[string], Row>;
    list: Database.Statement<[], Row>;
    revoke: Database.Statement<[number, string]>;
    byId: Database.Statement<[string], Row>;
  };

  constructor(file: string) {
    this.db = openSharedFile(file);
    this.db.pragma('synchronous = FULL');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS operator_credentials (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        role TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        created_at INTEGER NOT NULL,
        revoked_at INTEGER
      );
    `);
    this.stmt = {
      create: this.db.prepare(
        `INSERT INTO operator_credentials (id, name, role, token_hash, created_at, revoked_at)
         VALUES (@id, @name, @role, @tokenHash, @createdAt, @revokedAt)`,
      ),
      byHash: this.db.prepare(`SELECT ${COLUMNS} FROM operator_credentials WHERE token_hash = ?`),
      list: this.db.prepare(`SELECT ${COLUMNS} FROM operator_credentials ORDER BY seq`),
      revoke: this.db.prepare('UPDATE operator_credentials SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
      byId: this.db.prepare(`SELECT ${COLUMNS} FROM operator_credentials WHERE id = ?`),
    };
  }

  async create(record: OperatorCredentialRecord): Promise<void> {
    this.stmt.create.run(record);
  }

  async findByTokenHash(tokenHash: string): Promise<OperatorCredentialRecord | null> {
    const row = this.stmt.byHash.get(tokenHash);
    return row ? toRecord(row) : null;
  }

  async findById(id: string): Promise<OperatorCredentialRecord | null> {
    const row = this.stmt.byId.get(id);
    return row ? toRecord(row) : null;
  }

  async list(): Promise<OperatorCredentialRecord[]> {
    return this.stmt.list.all().map(toRecord);
  }

  async revoke(id: string, at: number): Promise<OperatorCredentialRecord | null> {
    return this.db.transaction(() => {
      this.stmt.revoke.run(at, id);
      const row = this.stmt.byId.get(id);
      return row ? toRecord(row) : null;
    })();
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
