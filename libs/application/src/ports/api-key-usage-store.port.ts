/**
 * When each API key was last used (the dashboard's "last used"). Written in batches, at most once
 * a minute per process, by `ApiKeyUsageRecorder`: never on a request's path. The granularity is
 * therefore a minute (docs/dashboard.md).
 * Adapters: SQLite (DATA_DIR/dashboard.db) and MongoDB; both pass
 * test/contract/api-key-usage-store.contract.ts.
 */
export const API_KEY_USAGE_STORE = Symbol('ApiKeyUsageStore');

export interface ApiKeyUsageStore {
  /** Records each key's use at the given epoch milliseconds; a later time never goes back. */
  record(uses: ReadonlyMap<string, number>): Promise<void>;
  /** The last recorded use of each of these keys that has one. */
  lastUsed(keyIds: readonly string[]): Promise<Map<string, number>>;
  close(): Promise<void>;
}
