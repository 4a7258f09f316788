import { join } from 'node:path';
import { SqliteOperatorCredentialStore } from '@app/infrastructure/sqlite';
import { inTemporaryDirectory } from './adapter-under-test';
import { operatorCredentialStoreContract } from './operator-credential-store.contract';

operatorCredentialStoreContract(
  'sqlite',
  inTemporaryDirectory('operators-contract-', (dir) => new SqliteOperatorCredentialStore(join(dir, 'operators.db'))),
);
