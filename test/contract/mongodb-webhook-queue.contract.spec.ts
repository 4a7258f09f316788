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

  describe('MongoWebhookQueue: attempts stored under the one counter of older releases', () => {
    it('lists them after the newer attempts of their subscription, which are numbered above them', async () => {
      const dbName = freshDbName();
      const connection = await MongoConnection.open(url, { databaseName: dbName });
      const db = connection.db();
      const legacy = (seq: number, webhookId: string) => ({
        _id: seq,
        delivery_id: `msg_${seq}`,
        webhook_id: webhookId,
        workspace_id: 'ws_1',
        event_type: 'project.created',
        attempt: 1,
        attempted_at: seq,
        duration_ms: 1,
        succeeded: true,
        response_status: 200,
        response_body: null,
        error: null,
        next_attempt_at: null,
      });
      await db.collection<{ _id: number }>('webhook_attempts').insertMany([legacy(1, 'whk_1'), legacy(2, 'whk_2')]);
      await db.collection<{ _id: string; seq: number }>('webhook_counters').insertOne({ _id: 'attempts', seq: 2 });
      const queue = await MongoWebhookQueue.connect(connection);
      try {
        await queue.init();
        await queue.recordAttempt(attempt('msg_new', 'whk_1'));
        const listed = await queue.listAttempts('whk_1', { limit: 10 });
        expect(listed.map((a) => [a.deliveryId, a.seq])).toEqual([
          ['msg_new', 3],
          ['msg_1', 1],
        ]);
        expect(await queue.listAttempts('whk_1', { beforeSeq: 3, limit: 10 })).toHaveLength(1);
      } finally {
        await queue.close();
        await dropDatabase(url, dbName);
      }
    });
  });
});

const attempt = (deliveryId: string, webhookId: string) => ({
  deliveryId,
  webhookId,
  workspaceId: 'ws_1',
  eventType: 'project.created',
  attempt: 1,
  attemptedAt: 10,
  durationMs: 1,
  succeeded: true,
  responseStatus: 200,
  responseBody: null,
  error: null,
  nextAttemptAt: null,
});
