import { MongoConnection, MongoIdempotencyStore } from '@app/infrastructure/mongodb';
import { idempotencyStoreContract } from './idempotency-store.contract';
import { onMongoDb } from './mongodb-server';

onMongoDb('IdempotencyStore contract', (url, dbName) => {
  idempotencyStoreContract('mongodb', async () => {
    const store = await MongoIdempotencyStore.connect(await MongoConnection.open(url, { databaseName: dbName }));
    return { store, close: () => store.close() };
  });
});
