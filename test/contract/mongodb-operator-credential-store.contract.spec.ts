import { MongoConnection, MongoOperatorCredentialStore } from '@app/infrastructure/mongodb';
import { onMongoDb } from './mongodb-server';
import { operatorCredentialStoreContract } from './operator-credential-store.contract';

onMongoDb('OperatorCredentialStore contract', (url, dbName) => {
  operatorCredentialStoreContract('mongodb', async () => {
    const store = await MongoOperatorCredentialStore.connect(await MongoConnection.open(url, { databaseName: dbName }));
    return { store, close: () => store.close() };
  });
});
