import { join } from 'node:path';
import { SqliteDashboardAccessStore } from '@app/infrastructure/sqlite';
import { inTemporaryDirectory } from './adapter-under-test';
import { dashboardAccessStoreContract } from './dashboard-access-store.contract';

dashboardAccessStoreContract(
  'sqlite',
  inTemporaryDirectory('dashboard-contract-', (dir) => new SqliteDashboardAccessStore(join(dir, 'dashboard.db'))),
);
