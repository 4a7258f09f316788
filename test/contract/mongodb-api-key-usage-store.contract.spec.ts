import { MongoApiKeyUsageStore, MongoConnection } from '@app/infrastructure/mongodb';
import { apiKeyUsageStoreContract } from './api-key-usage-store.contract';
import { onMongoDb } from './mongodb-server';

onMongoDb('ApiKeyUsageStore contract', (url, dbName) => {
  apiKeyUsageStoreContract('mongodb', async () => {
    const store = await MongoApiKeyUsageStore.connect(await MongoConnection.open(url, { databaseName: dbName }));
    return { store, close: () => store.close() };
  });
});
