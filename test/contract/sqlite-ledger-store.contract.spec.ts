import { join } from 'node:path';
import { SqliteLedgerStore } from '@app/infrastructure/sqlite';
import { inTemporaryDirectory } from './adapter-under-test';
import { ledgerStoreContract } from './ledger-store.contract';

ledgerStoreContract(
  'sqlite',
  inTemporaryDirectory('ledger-contract-', (dir) => new SqliteLedgerStore(join(dir, 'ledger.db'))),
);

ledgerStoreContract(
  'sqlite, appends on a worker thread',
  inTemporaryDirectory(
    'ledger-contract-worker-',
    (dir) => new SqliteLedgerStore(join(dir, 'ledger.db'), { writer: 'worker' }),
  ),
);
