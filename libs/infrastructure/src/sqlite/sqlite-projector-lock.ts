import { HeldProjectorLock, ProjectorLock, ProjectorLockHeldError, ProjectorLockOptions } from '@app/application/ports';
import { LockHeldError, SqliteProcessLock } from './sqlite-process-lock';

/**
 * The embedded read models' projector lock: an OS lock on a file beside them (SqliteProcessLock).
 * It cannot be lost while its process runs, and the operating system drops it when the process
 * ends however it ends, so a restarted projector never waits for a dead one.
 */
export class SqliteProjectorLock implements ProjectorLock {
  constructor(private readonly file: string) {}

  get description(): string {
    return this.file;
  }

  async acquire(options: ProjectorLockOptions): Promise<HeldProjectorLock> {
    try {
      const lock = await SqliteProcessLock.acquire(this.file, { waitMs: options.waitMs, onWait: options.onWait });
      return { release: async () => lock.release() };
    } catch (error) {
      if (error instanceof LockHeldError) throw new ProjectorLockHeldError(`${this.file} is locked by another process`);
      throw error;
    }
  }
}
