import { HeldProjectorLock, ProjectorLock, ProjectorLockHeldError } from '@app/application/ports';

/**
 * The behaviour every ProjectorLock adapter must show. `open` gives the lock as two processes
 * over the same read models see it (two instances); run by sqlite-projector-lock.contract.spec.ts
 * (always) and mongodb-projector-lease.contract.spec.ts (when MONGODB_URL is set).
 */
export function projectorLockContract(
  name: string,
  open: () => Promise<{ first: ProjectorLock; second: ProjectorLock; close: () => Promise<void> }>,
) {
  describe(`ProjectorLock contract: ${name}`, () => {
    let first: ProjectorLock;
    let second: ProjectorLock;
    let close: () => Promise<void>;
    const held: HeldProjectorLock[] = [];
    const acquire = async (lock: ProjectorLock, options: Parameters<ProjectorLock['acquire']>[0]) => {
      const hold = await lock.acquire(options);
      held.push(hold);
      return hold;
    };

    beforeEach(async () => {
      ({ first, second, close } = await open());
    });
    afterEach(async () => {
      for (const hold of held.splice(0)) await hold.release();
      await close();
    });

    it('refuses a second projector once its wait is over, having said once that it waits', async () => {
      await acquire(first, { waitMs: 0 });
      let waits = 0;
      const started = Date.now();
      const refused = acquire(second, { waitMs: 300, onWait: () => waits++ });
      await expect(refused).rejects.toThrow(ProjectorLockHeldError);
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      expect(waits).toBe(1);
      expect(first.description.length).toBeGreaterThan(0);
    });

    it('lets a waiting projector in as soon as the holder releases, within its wait', async () => {
      const hold = await acquire(first, { waitMs: 0 });
      let waited = false;
      const next = acquire(second, { waitMs: 10_000, onWait: () => (waited = true) });
      await new Promise((resolve) => setTimeout(resolve, 200));
      await hold.release();
      await hold.release(); // a second release is harmless
      await expect(next).resolves.toBeDefined();
      expect(waited).toBe(true);
    });

    it('never reports a lock lost while its holder keeps it', async () => {
      const lost: string[] = [];
      await acquire(first, { waitMs: 0, onLost: (reason) => lost.push(reason) });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await expect(second.acquire({ waitMs: 0 })).rejects.toThrow(ProjectorLockHeldError);
      expect(lost).toEqual([]);
    });
  });
}
