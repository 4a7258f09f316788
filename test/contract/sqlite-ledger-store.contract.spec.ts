import { join } from 'node:path';
import { SqliteLedgerStore } from '@app/infrastructure/sqlite';
import { inTemporaryDirectory } from './adapter-under-test';
import { ledgerStoreContract } from './ledger-store.contract';

ledgerStoreContract(
  'sqlite',
  inTemporaryDirectory('ledger-contract-', (dir) => new SqliteLedgerStore(join(dir, 'ledger.db'))),
);
