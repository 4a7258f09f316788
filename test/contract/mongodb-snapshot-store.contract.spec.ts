import { MongoConnection, MongoSnapshotStore } from '@app/infrastructure/mongodb';
import { onMongoDb } from './mongodb-server';
import { snapshotStoreContract } from './snapshot-store.contract';

onMongoDb('SnapshotStore contract', (url, dbName) => {
  snapshotStoreContract('mongodb', async () => {
    const store = await MongoSnapshotStore.connect(await MongoConnection.open(url, { databaseName: dbName }));
    return { store, close: () => store.close() };
  });
});
