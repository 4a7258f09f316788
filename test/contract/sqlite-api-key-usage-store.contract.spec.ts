import { join } from 'node:path';
import { SqliteApiKeyUsageStore } from '@app/infrastructure/sqlite';
import { inTemporaryDirectory } from './adapter-under-test';
import { apiKeyUsageStoreContract } from './api-key-usage-store.contract';

apiKeyUsageStoreContract(
  'sqlite',
  inTemporaryDirectory('key-usage-contract-', (dir) => new SqliteApiKeyUsageStore(join(dir, 'dashboard.db'))),
);
