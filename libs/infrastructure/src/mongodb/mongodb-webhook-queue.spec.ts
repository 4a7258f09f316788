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

describe('MongoWebhookQueue.requeueDelivery', () => {
  /** A deliveries collection typed as the driver's: one document, updated as the server would. */
  function queueOver(doc: { _id: string; webhook_id: string; status: string; attempts: number } | null) {
    const calls: Array<{ filter: Document; update: Document[] }> = [];
    const matches = (filter: Document) =>
      doc !== null &&
      doc._id === filter._id.$eq &&
      doc.webhook_id === filter.webhook_id.$eq &&
      (filter.status === undefined || (filter.status.$in as string[]).includes(doc.status));
    const deliveries: Pick<Collection<Document>, 'updateOne' | 'countDocuments'> = {
      updateOne: (async (filter: Document, update: Document[]) => {
        calls.push({ filter, update });
        if (!matches(filter)) return { matchedCount: 0, modifiedCount: 0 };
        doc!.status = update[0].$set.status;
        return { matchedCount: 1, modifiedCount: 1 };
      }) as unknown as Collection<Document>['updateOne'],
      countDocuments: (async (filter: Document) => (matches(filter) ? 1 : 0)) as Collection<Document>['countDocuments'],
    };
    const db = { collection: () => deliveries } as unknown as Db;
    const client = { db: () => db } as unknown as MongoClient;
    return { queue: new MongoWebhookQueue(MongoConnection.over(client, 'ops'), false), calls };
  }

  it('sets a settled delivery pending, due now, in a new round that starts at its attempt count', async () => {
    const { queue, calls } = queueOver({ _id: 'msg_1', webhook_id: 'whk_1', status: 'failed', attempts: 3 });
    expect(await queue.requeueDelivery('whk_1', 'msg_1', 5_000)).toBe('queued');
    expect(calls[0].filter).toEqual({
      _id: { $eq: 'msg_1' },
      webhook_id: { $eq: 'whk_1' },
      status: { $in: ['failed', 'succeeded'] },
    });
    expect(calls[0].update).toEqual([
      {
        $set: {
          status: 'pending',
          next_attempt_at: 5_000,
          round_start: '$attempts',
          last_error: null,
          settled_at: null,
        },
      },
    ]);
    expect(await queue.requeueDelivery('whk_1', 'msg_1', 6_000)).toBe('already_queued');
  });

  it('finds no delivery of another subscription, nor one that is not there', async () => {
    const { queue } = queueOver({ _id: 'msg_1', webhook_id: 'whk_1', status: 'failed', attempts: 1 });
    expect(await queue.requeueDelivery('whk_2', 'msg_1', 5_000)).toBe('not_found');
    expect(await queue.requeueDelivery('whk_1', 'msg_2', 5_000)).toBe('not_found');
  });
});

describe('MongoWebhookQueue.countAttempts', () => {
  it("groups the subscription's attempts since the time by period, in one aggregation", async () => {
    const pipelines: Document[][] = [];
    const attempts: Pick<Collection<Document>, 'aggregate'> = {
      aggregate: ((pipeline: Document[]) => {
        pipelines.push(pipeline);
        return { toArray: async () => [{ bucket: 3_600_000, succeeded: 2, failed: 1 }] };
      }) as unknown as Collection<Document>['aggregate'],
    };
    const db = { collection: () => attempts } as unknown as Db;
    const client = { db: () => db } as unknown as MongoClient;
    const queue = new MongoWebhookQueue(MongoConnection.over(client, 'ops'), false);

    expect(await queue.countAttempts('whk_1', { since: 1000, bucketMs: 3_600_000 })).toEqual([
      { bucket: 3_600_000, succeeded: 2, failed: 1 },
    ]);
    expect(pipelines[0][0]).toEqual({ $match: { webhook_id: { $eq: 'whk_1' }, attempted_at: { $gte: 1000 } } });
    expect(pipelines[0][1].$group._id).toEqual({
      $subtract: ['$attempted_at', { $mod: ['$attempted_at', 3_600_000] }],
    });
    await expect(queue.countAttempts('whk_1', { since: 0, bucketMs: 0 })).rejects.toThrow('bucketMs');
  });
});
