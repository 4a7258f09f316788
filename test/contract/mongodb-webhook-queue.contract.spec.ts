import { MongoConnection, MongoWebhookQueue } from '@app/infrastructure/mongodb';
import { dropDatabase, freshDbName, onMongoDb } from './mongodb-server';
import { webhookQueueContract } from './webhook-queue.contract';

// Every test gets a database of its own, dropped after it.
onMongoDb('WebhookQueue contract', (url) => {
  webhookQueueContract('mongodb', async () => {
    const dbName = freshDbName();
    const open = async () => MongoWebhookQueue.connect(await MongoConnection.open(url, { databaseName: dbName }));
    const queue = await open();
    return {
      queue,
      openSecond: open,
      close: async () => {
        await queue.close();
        await dropDatabase(url, dbName);
      },
    };
  });
});
