/**
 * The projector lock port: the read models have one writer, the projector (PROJECTIONS=inline),
 * and a second process started as a projector over the same read models (a rolling deploy, a
 * restart whose old process is still stopping, a mistake) must not write them beside it. Each
 * read store has its lock: on the embedded default an OS lock on DATA_DIR/projector.lock, which
 * the operating system drops with its holder; on MongoDB a lease document that its holder renews
 * and that runs out when its holder stops renewing it. Both pass test/contract/projector-lock.contract.ts.
 */

/** The lock is still held by another projector once the wait is over. */
export class ProjectorLockHeldError extends Error {
  constructor(
    /** What is locked and, where known, by whom (for the operator's message). */
    readonly holder: string,
  ) {
    super(`The projector lock is held: ${holder}`);
    this.name = 'ProjectorLockHeldError';
  }
}

export interface ProjectorLockOptions {
  /** How long to keep trying while another projector holds the lock (ms). */
  waitMs: number;
  /** Called once, when the first try finds the lock held and the wait begins. */
  onWait?: () => void;
  /**
   * Called at most once, when a lock already held is lost (a lease that could not be renewed in
   * time, or that another process took over): from then on another projector may write, so the
   * holder must stop writing at once. A lock that cannot be lost (the OS lock) never calls it.
   */
  onLost?: (reason: string) => void;
}

export interface HeldProjectorLock {
  /** Lets the next projector in. Idempotent. */
  release(): Promise<void>;
}

export interface ProjectorLock {
  /** What the lock guards, in the operator's words (a file, a database). */
  readonly description: string;
  /** Takes the lock, waiting up to `waitMs` for its holder to let go; ProjectorLockHeldError after that. */
  acquire(options: ProjectorLockOptions): Promise<HeldProjectorLock>;
}
