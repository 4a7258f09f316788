import { readFileSync } from 'node:fs';
import type { Database as SqliteDatabase } from 'better-sqlite3';
import Database from '../../libs/infrastructure/src/sqlite/sqlite-driver';

export const DATABASE = Symbol('DATABASE');
export type { SqliteDatabase };

/** An API key as stored: only the SHA-256 of the key itself. */
export interface ApiKey {
  key_hash: string;
  key_id: string;
  name: string;
  workspace_id: string;
  scope: 'full_access' | 'read_only';
}

/**
 * The database at DB_FILE: WAL with synchronous=FULL, so every create is fsynced before it is
 * answered. Keys are issued elsewhere; the ones in API_KEYS_FILE (a JSON array of `ApiKey`) are
 * stored at start-up.
 */
export function openDatabase(): SqliteDatabase {
  const db = new Database(process.env.DB_FILE ?? 'peer.db');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(`
    CREATE TABLE IF NOT EXISTS api_keys (
      key_hash TEXT PRIMARY KEY,
      key_id TEXT NOT NULL,
      name TEXT NOT NULL,
      workspace_id TEXT NOT NULL,
      scope TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS projects (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      workspace_id TEXT NOT NULL,
      archived INTEGER NOT NULL DEFAULT 0,
      data TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS projects_by_workspace ON projects (workspace_id, seq);
  `);
  if (process.env.API_KEYS_FILE) {
    const keys = JSON.parse(readFileSync(process.env.API_KEYS_FILE, 'utf8')) as ApiKey[];
    const insert = db.prepare(
      'INSERT OR REPLACE INTO api_keys (key_hash, key_id, name, workspace_id, scope) VALUES (@key_hash, @key_id, @name, @workspace_id, @scope)',
    );
    db.transaction(() => keys.forEach((key) => insert.run(key)))();
  }
  return db;
}
