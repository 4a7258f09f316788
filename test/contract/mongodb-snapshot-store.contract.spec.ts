import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { MongoSnapshotStore } from '@app/infrastructure/mongodb';
import { snapshotStoreContract } from './snapshot-store.contract';

const url = process.env.MONGODB_URL;

if (url) {
  const dbName = `wos_snapshots_${randomUUID().replace(/-/g, '')}`;
  snapshotStoreContract('mongodb', async () => {
    const store = await MongoSnapshotStore.connect(url, dbName);
    return { store, close: () => store.close() };
  });
  afterAll(async () => {
    const client = await MongoClient.connect(url);
    await client.db(dbName).dropDatabase();
    await client.close();
  });
} else {
  it.skip('SnapshotStore contract: mongodb (set MONGODB_URL to run against a real server)', () => undefined);
}
