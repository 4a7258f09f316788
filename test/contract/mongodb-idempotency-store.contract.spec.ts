import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { MongoIdempotencyStore } from '@app/infrastructure/mongodb';
import { idempotencyStoreContract } from './idempotency-store.contract';

/**
 * Runs the IdempotencyStore contract against a real MongoDB when MONGODB_URL is set (e.g.
 * `docker compose up -d mongodb` then
 * `MONGODB_URL='mongodb://localhost:27017/?replicaSet=rs0&directConnection=true' npx jest test/contract`).
 * Each run uses a database of its own, dropped at the end.
 */
const url = process.env.MONGODB_URL;

if (url) {
  const dbName = `contract_${randomUUID().replace(/-/g, '')}`;

  idempotencyStoreContract('mongodb', async () => {
    const store = await MongoIdempotencyStore.connect(url, dbName);
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
  describe('IdempotencyStore contract: mongodb', () => {
    it.skip('needs a server: set MONGODB_URL (docker compose up -d mongodb) to run it', () => undefined);
  });
}
