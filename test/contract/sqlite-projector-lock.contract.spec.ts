import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteProjectorLock } from '@app/infrastructure/sqlite';
import { projectorLockContract } from './projector-lock.contract';

// Two holders in one process exclude each other as two processes do (SQLite tracks its locks per file).
projectorLockContract('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'projector-lock-contract-'));
  const file = join(dir, 'projector.lock');
  return {
    first: new SqliteProjectorLock(file),
    second: new SqliteProjectorLock(file),
    close: async () => rmSync(dir, { recursive: true, force: true }),
  };
});
