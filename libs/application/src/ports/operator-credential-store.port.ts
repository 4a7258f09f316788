/**
 * Named operator credentials (docs/operations.md, Operator credentials): each kept as the SHA-256
 * digest of its token, never the token. Read on every request that presents one, by digest, so a
 * revocation holds on the next request of every process sharing the store.
 * Adapters: SQLite (DATA_DIR/operators.db) and MongoDB; both pass
 * test/contract/operator-credential-store.contract.ts.
 */
export const OPERATOR_CREDENTIAL_STORE = Symbol('OperatorCredentialStore');

/** `operator` may do everything; `auditor` may only read (docs/operations.md). */
export const OPERATOR_ROLES = ['operator', 'auditor'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export interface OperatorCredentialRecord {
  id: string;
  name: string;
  role: OperatorRole;
  /** SHA-256 (hex) of the token. */
  tokenHash: string;
  /** Epoch milliseconds. */
  createdAt: number;
  /** When it was revoked; null while it is valid. */
  revokedAt: number | null;
}

export interface OperatorCredentialStore {
  /** Stores a new credential; its id and its digest are each unique. */
  create(record: OperatorCredentialRecord): Promise<void>;
  /** The credential whose token has this digest, revoked or not; null when none has. */
  findByTokenHash(tokenHash: string): Promise<OperatorCredentialRecord | null>;
  /** The credential with this id, revoked or not; null when none has it (a console session's holder). */
  findById(id: string): Promise<OperatorCredentialRecord | null>;
  /** Every credential, revoked ones included, in the order they were created. */
  list(): Promise<OperatorCredentialRecord[]>;
  /**
   * Marks the credential revoked at `at` (a revoked one keeps its first revocation time) and
   * returns it as stored; null when there is none with this id.
   */
  revoke(id: string, at: number): Promise<OperatorCredentialRecord | null>;
  close(): Promise<void>;
}
