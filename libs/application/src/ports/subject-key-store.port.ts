/**
 * Keys for crypto-shredding: one random 256-bit key per data subject (a team member). Destroying a
 * key makes every copy of that subject's personal data — in events, read models, exports and
 * backups of them — unreadable, without rewriting history.
 * Adapters: SQLite (DATA_DIR/keys.db) and MongoDB; both pass test/contract/subject-key-store.contract.ts.
 */
export const SUBJECT_KEY_STORE = Symbol('SubjectKeyStore');

export interface SubjectKeyStore {
  /** The subject's key, created on first use; null when it was destroyed (never re-created). */
  getOrCreate(subjectId: string): Promise<Buffer | null>;
  /** The subject's key; null when it never existed or was destroyed. */
  get(subjectId: string): Promise<Buffer | null>;
  /** Destroys the key for good; a no-op for an unknown or already destroyed subject. */
  destroy(subjectId: string): Promise<void>;
  close(): Promise<void>;
}
