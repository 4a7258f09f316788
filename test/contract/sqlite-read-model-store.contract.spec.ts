import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteReadModelStore } from '@app/infrastructure/sqlite';
import { readModelContract } from './read-model.contract';

readModelContract('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rm-contract-'));
  const store = new SqliteReadModelStore(join(dir, 'read.db'));
  return {
    store,
    close: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
