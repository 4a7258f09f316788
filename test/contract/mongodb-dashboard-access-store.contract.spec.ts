import { MongoConnection, MongoDashboardAccessStore } from '@app/infrastructure/mongodb';
import { dashboardAccessStoreContract } from './dashboard-access-store.contract';
import { onMongoDb } from './mongodb-server';

onMongoDb('DashboardAccessStore contract', (url, dbName) => {
  dashboardAccessStoreContract('mongodb', async () => {
    const store = await MongoDashboardAccessStore.connect(await MongoConnection.open(url, { databaseName: dbName }));
    return { store, close: () => store.close() };
  });
});
