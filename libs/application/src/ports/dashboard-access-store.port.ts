/**
 * The dashboard's sign-in links and sessions (docs/dashboard.md). Both are kept only as SHA-256
 * digests of their random secrets: whoever reads the store cannot sign in with what it holds.
 * Adapters: SQLite (DATA_DIR/dashboard.db) and MongoDB; both pass
 * test/contract/dashboard-access-store.contract.ts.
 */
export const DASHBOARD_ACCESS_STORE = Symbol('DashboardAccessStore');

/** A one-time sign-in link for one member of one workspace. */
export interface DashboardLinkRecord {
  /** SHA-256 (hex) of the link's token. */
  tokenHash: string;
  workspaceId: string;
  memberId: string;
  /** Epoch milliseconds after which the link no longer signs anyone in. */
  expiresAt: number;
}

/** A signed-in member: the cookie holds the session id, the store its digest. */
export interface DashboardSessionRecord {
  /** SHA-256 (hex) of the session id. */
  idHash: string;
  workspaceId: string;
  memberId: string;
  createdAt: number;
  /** The last request the session served (the idle timeout counts from here). */
  lastSeenAt: number;
  /** Absolute end of the session, whatever its activity. */
  expiresAt: number;
}

export interface DashboardAccessStore {
  saveLink(link: DashboardLinkRecord): Promise<void>;
  /**
   * Removes the link and returns it, if it existed and had not expired at `now`; null otherwise.
   * Atomic: of any number of concurrent consumptions of one link, at most one gets it.
   */
  consumeLink(tokenHash: string, now: number): Promise<DashboardLinkRecord | null>;
  createSession(session: DashboardSessionRecord): Promise<void>;
  /** The session, or null when unknown or past `expiresAt` or idle longer than `idleMs` at `now`. */
  findSession(idHash: string, now: number, idleMs: number): Promise<DashboardSessionRecord | null>;
  /** Records activity: `lastSeenAt` moves forward only. */
  touchSession(idHash: string, lastSeenAt: number): Promise<void>;
  deleteSession(idHash: string): Promise<void>;
  /** Forgets expired links and sessions (expired or idle longer than `idleMs`); returns how many. */
  purgeExpired(now: number, idleMs: number): Promise<number>;
  close(): Promise<void>;
}
