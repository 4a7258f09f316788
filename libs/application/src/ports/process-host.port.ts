export const PROCESS_HOST = Symbol('ProcessHost');

/**
 * The process this code runs in and its host, as the lease holders need them. Kept behind a port
 * so that the application layer neither reads the host name nor signals processes: that is the
 * runtime's business (the adapter lives in apps/api), and a test can stand in for it.
 */
export interface ProcessHost {
  /** A new owner id for a lease, unique to this process (and to this call); opaque to its users. */
  newOwnerId(): string;
  /**
   * Whether an owner id (one `newOwnerId` gave, here or in another process) names a process of
   * this host that no longer runs: a crash or a kill -9. False whenever that cannot be told.
   */
  isDeadOwner(owner: string): boolean;
}
