import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_READ_CACHE, SqliteReadModelStore, SqliteReadModelStoreOptions } from '@app/infrastructure/sqlite';
import { readModelContract } from './read-model.contract';

// Both writers: inline on the reading connection, and the service's worker thread; and the
// projector's configuration, the worker with the read cache (every read after a write must miss).
const configurations: [string, SqliteReadModelStoreOptions][] = [
  ['inline writer', { writer: 'inline' }],
  ['worker writer', { writer: 'worker' }],
  ['worker writer, read cache', { writer: 'worker', readCache: DEFAULT_READ_CACHE }],
];
for (const [name, options] of configurations) {
  readModelContract(`sqlite (${name})`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rm-contract-'));
    const store = new SqliteReadModelStore(join(dir, 'read.db'), options);
    return {
      store,
      close: async () => {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });
}
