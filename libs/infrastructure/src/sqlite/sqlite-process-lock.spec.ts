import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LockHeldError, SqliteProcessLock } from './sqlite-process-lock';

/** Holders in one process; another process's and a killed holder's: test/topology/one-projector.e2e-spec.ts. */
describe('SqliteProcessLock', () => {
  let dir: string;
  let file: string;
  const held: SqliteProcessLock[] = [];
  const acquire = async (options?: Parameters<typeof SqliteProcessLock.acquire>[1]) => {
    const lock = await SqliteProcessLock.acquire(file, options);
    held.push(lock);
    return lock;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'process-lock-'));
    file = join(dir, 'projector.lock');
  });
  afterEach(() => {
    for (const lock of held.splice(0)) lock.release();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a second holder while the first keeps it, and lets the next one in once released', async () => {
    const first = await acquire();
    await expect(SqliteProcessLock.acquire(file)).rejects.toThrow(LockHeldError);
    first.release();
    first.release(); // a second release is harmless
    await expect(acquire()).resolves.toBeInstanceOf(SqliteProcessLock);
  });

  it('waits for a holder that lets go within the wait, saying once that it waits', async () => {
    const first = await acquire();
    setTimeout(() => first.release(), 150);
    const started = Date.now();
    const onWait = jest.fn();
    await acquire({ waitMs: 5_000, retryMs: 20, onWait });
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    expect(onWait).toHaveBeenCalledTimes(1);
  });

  it('does not say it waits when the lock is free', async () => {
    const onWait = jest.fn();
    await acquire({ waitMs: 5_000, onWait });
    expect(onWait).not.toHaveBeenCalled();
  });

  it('gives up once the wait is over, naming the file', async () => {
    await acquire();
    const started = Date.now();
    const refused = await SqliteProcessLock.acquire(file, { waitMs: 200, retryMs: 20 }).catch((error) => error);
    expect(refused).toBeInstanceOf(LockHeldError);
    expect(refused.message).toBe(`${file} is locked by another process`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
  });
});
