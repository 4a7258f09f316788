import { MongoConnection, MongoLedgerStore } from '@app/infrastructure/mongodb';
import { dropDatabase, freshDbName, onMongoDb } from './mongodb-server';
import { ledgerStoreContract } from './ledger-store.contract';

onMongoDb('LedgerStore contract', (url) => {
  // A database per test: each starts from an empty ledger.
  ledgerStoreContract('mongodb', async () => {
    const dbName = freshDbName();
    const store = await MongoLedgerStore.connect(await MongoConnection.open(url, { databaseName: dbName }));
    return {
      store,
      close: async () => {
        await store.close();
        await dropDatabase(url, dbName);
      },
    };
  });
});
