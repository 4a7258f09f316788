import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@app/infrastructure/sqlite';
import { eventStoreContract } from './event-store.contract';

for (const writer of ['worker', 'inline'] as const) {
  eventStoreContract(`sqlite (${writer} writer)`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'es-contract-'));
    const store = new SqliteEventStore(join(dir, 'events.db'), { pollIntervalMs: 50, writer });
    return {
      store,
      close: async () => {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });
}
