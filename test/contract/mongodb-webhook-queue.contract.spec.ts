import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { MongoWebhookQueue } from '@app/infrastructure/mongodb';
import { webhookQueueContract } from './webhook-queue.contract';

/**
 * Runs the WebhookQueue contract against a real MongoDB when MONGODB_URL is set (see
 * mongodb-read-model-store.contract.spec.ts). Every test gets a database of its own, dropped after.
 */
const url = process.env.MONGODB_URL;

if (url) {
  webhookQueueContract('mongodb', async () => {
    const dbName = `wq_contract_${randomUUID().replace(/-/g, '')}`;
    const queue = await MongoWebhookQueue.connect(url, dbName);
    return {
      queue,
      openSecond: () => MongoWebhookQueue.connect(url, dbName),
      close: async () => {
        await queue.close();
        const client = new MongoClient(url);
        try {
          await client.connect();
          await client.db(dbName).dropDatabase();
        } finally {
          await client.close();
        }
      },
    };
  });
} else {
  describe('WebhookQueue contract: mongodb', () => {
    it.skip('needs a server: set MONGODB_URL (docker compose up -d mongodb) to run it', () => undefined);
  });
}
