import { MongoWebhookQueue } from '@app/infrastructure/mongodb';
import { dropDatabase, freshDbName, onMongoDb } from './mongodb-server';
import { webhookQueueContract } from './webhook-queue.contract';

// Every test gets a database of its own, dropped after it.
onMongoDb('WebhookQueue contract', (url) => {
  webhookQueueContract('mongodb', async () => {
    const dbName = freshDbName();
    const queue = await MongoWebhookQueue.connect(url, dbName);
    return {
      queue,
      openSecond: () => MongoWebhookQueue.connect(url, dbName),
      close: async () => {
        await queue.close();
        await dropDatabase(url, dbName);
      },
    };
  });
});
