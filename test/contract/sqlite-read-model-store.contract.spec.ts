import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteReadModelStore, SqliteReadModelStoreOptions } from '@app/infrastructure/sqlite';
import { readModelContract } from './read-model.contract';

// Both writers: inline on the reading connection, and the service's worker thread.
for (const writer of ['inline', 'worker'] as const satisfies SqliteReadModelStoreOptions['writer'][]) {
  readModelContract(`sqlite (${writer} writer)`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rm-contract-'));
    const store = new SqliteReadModelStore(join(dir, 'read.db'), { writer });
    return {
      store,
      close: async () => {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });
}
