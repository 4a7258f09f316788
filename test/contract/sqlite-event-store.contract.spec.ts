import { join } from 'node:path';
import { SqliteEventStore } from '@app/infrastructure/sqlite';
import { inTemporaryDirectory } from './adapter-under-test';
import { eventStoreContract } from './event-store.contract';

for (const writer of ['worker', 'inline'] as const) {
  eventStoreContract(
    `sqlite (${writer} writer)`,
    inTemporaryDirectory(
      'es-contract-',
      (dir) => new SqliteEventStore(join(dir, 'events.db'), { pollIntervalMs: 50, writer }),
    ),
  );
}
