import { Collection, Db, Document, MongoClient } from 'mongodb';
import { DeliveryAttempt, SettleRequest } from '@app/application/ports';
import { MongoConnection } from './mongodb-connection';
import { MongoWebhookQueue } from './mongodb-webhook-queue';

/**
 * A queue over collections typed as the driver's, recording every write by collection and
 * document id; counters answer as `$ifNull` + `$add` would on the server.
 */
function recordingQueue(legacyCounter: number | null) {
  const writes: string[] = [];
  const counters = new Map<string, number>();
  const inserted: Document[] = [];
  const collection = (name: string) => {
    const fake: Pick<
      Collection<Document>,
      'updateOne' | 'findOne' | 'findOneAndUpdate' | 'insertMany' | 'updateMany' | 'createIndex' | 'dropIndex'
    > = {
      updateOne: (async (filter: Document) => {
        writes.push(`${name}:${filter._id}`);
        return { matchedCount: 1 };
      }) as unknown as Collection<Document>['updateOne'],
      findOne: (async (filter: Document) =>
        name === 'webhook_counters' && filter._id === 'attempts' && legacyCounter !== null
          ? { _id: 'attempts', seq: legacyCounter }
          : null) as unknown as Collection<Document>['findOne'],
      findOneAndUpdate: (async (filter: Document, update: Document[]) => {
        writes.push(`${name}:${filter._id}`);
        if (name !== 'webhook_counters') return {};
        const [base, added] = update[0].$set.seq.$add as [{ $ifNull: [string, number] }, number];
        const seq = (counters.get(filter._id) ?? base.$ifNull[1]) + added;
        counters.set(filter._id, seq);
        return { _id: filter._id, seq };
      }) as unknown as Collection<Document>['findOneAndUpdate'],
      insertMany: (async (docs: Document[]) => {
        for (const doc of docs) writes.push(`${name}:${doc._id}`);
        inserted.push(...docs);
        return {};
      }) as unknown as Collection<Document>['insertMany'],
      updateMany: (async () => ({ modifiedCount: 0 })) as unknown as Collection<Document>['updateMany'],
      createIndex: async () => 'index',
      dropIndex: async () => ({}),
    };
    return fake as Collection<Document>;
  };
  const db = { collection } as unknown as Db;
  const client = { db: () => db } as unknown as MongoClient;
  return { queue: new MongoWebhookQueue(MongoConnection.over(client, 'ops'), false), writes, inserted };
}

const attemptOf = (deliveryId: string, webhookId: string): DeliveryAttempt => ({
  deliveryId,
  webhookId,
  workspaceId: 'ws_1',
  eventType: 'project.created',
  attempt: 1,
  attemptedAt: 1_000,
  durationMs: 5,
  succeeded: true,
  responseStatus: 200,
  responseBody: null,
  error: null,
  nextAttemptAt: null,
});
const settled = (deliveryId: string, webhookId: string): SettleRequest => ({
  claim: { id: deliveryId, claimToken: 'token' },
  attempt: attemptOf(deliveryId, webhookId),
  settlement: { status: 'succeeded' },
});

describe('MongoWebhookQueue settles', () => {
  it('write only documents of their own subscriptions: no counter shared by every settle', async () => {
    const { queue, writes } = recordingQueue(null);
    await queue.settleMany([settled('msg_1', 'whk_a'), settled('msg_2', 'whk_b'), settled('msg_3', 'whk_a')]);
    expect(writes).toContain('webhook_counters:attempts:whk_a');
    expect(writes).toContain('webhook_counters:attempts:whk_b');
    expect(writes.filter((w) => w.startsWith('webhook_counters:'))).toHaveLength(2);
    expect(writes).not.toContain('webhook_counters:attempts');
    // Two settles of different subscriptions in two processes would write disjoint documents.
    const { queue: other, writes: otherWrites } = recordingQueue(null);
    await other.settleMany([settled('msg_9', 'whk_c')]);
    expect(otherWrites.filter((w) => writes.includes(w))).toEqual([]);
  });

  it('number each subscription’s attempts in order, after those of the legacy shared counter', async () => {
    const { queue, inserted } = recordingQueue(41);
    await queue.settleMany([settled('msg_1', 'whk_a'), settled('msg_2', 'whk_b'), settled('msg_3', 'whk_a')]);
    await queue.recordAttempt(attemptOf('msg_4', 'whk_a'));
    expect(inserted.map((doc) => [doc._id, doc.seq, doc.delivery_id])).toEqual([
      ['whk_a:42', 42, 'msg_1'],
      ['whk_a:43', 43, 'msg_3'],
      ['whk_b:42', 42, 'msg_2'],
      ['whk_a:44', 44, 'msg_4'],
    ]);
  });
});
