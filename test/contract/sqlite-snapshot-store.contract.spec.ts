import { join } from 'node:path';
import { SqliteSnapshotStore } from '@app/infrastructure/sqlite';
import { inTemporaryDirectory } from './adapter-under-test';
import { snapshotStoreContract } from './snapshot-store.contract';

snapshotStoreContract(
  'sqlite',
  inTemporaryDirectory('snapshots-contract-', (dir) => new SqliteSnapshotStore(join(dir, 'snapshots.db'))),
);
