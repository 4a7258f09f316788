import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { MongoSubjectKeyStore } from '@app/infrastructure/mongodb';
import { subjectKeyStoreContract } from './subject-key-store.contract';

const url = process.env.MONGODB_URL;

if (url) {
  const dbName = `wos_keys_${randomUUID().replace(/-/g, '')}`;
  subjectKeyStoreContract('mongodb', async () => {
    const store = await MongoSubjectKeyStore.connect(url, dbName);
    return { store, close: () => store.close() };
  });
  afterAll(async () => {
    const client = await MongoClient.connect(url);
    await client.db(dbName).dropDatabase();
    await client.close();
  });
} else {
  it.skip('SubjectKeyStore contract: mongodb (set MONGODB_URL to run against a real server)', () => undefined);
}
