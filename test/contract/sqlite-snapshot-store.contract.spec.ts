import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteSnapshotStore } from '@app/infrastructure/sqlite';
import { snapshotStoreContract } from './snapshot-store.contract';

snapshotStoreContract('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'snapshots-contract-'));
  const store = new SqliteSnapshotStore(join(dir, 'snapshots.db'));
  return {
    store,
    close: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
