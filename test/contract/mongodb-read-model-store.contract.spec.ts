import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { MongoReadModelStore } from '@app/infrastructure/mongodb';
import { readModelContract } from './read-model.contract';

/**
 * Runs the ReadModelStore contract against a real MongoDB when MONGODB_URL is set (e.g.
 * `docker compose up -d mongodb` then
 * `MONGODB_URL='mongodb://localhost:27017/?replicaSet=rs0&directConnection=true' npx jest test/contract`).
 * Each run uses a database of its own, dropped at the end.
 */
const url = process.env.MONGODB_URL;

if (url) {
  const dbName = `contract_${randomUUID().replace(/-/g, '')}`;

  readModelContract('mongodb', async () => {
    const store = await MongoReadModelStore.connect(url, dbName);
    return { store, close: () => store.close() };
  });

  afterAll(async () => {
    const client = new MongoClient(url);
    try {
      await client.connect();
      await client.db(dbName).dropDatabase();
    } finally {
      await client.close();
    }
  });
} else {
  describe('ReadModelStore contract: mongodb', () => {
    it.skip('needs a server: set MONGODB_URL (docker compose up -d mongodb) to run it', () => undefined);
  });
}
