import { Collection, Db, Document, Filter, MongoClient } from 'mongodb';
import { MongoConnection } from './mongodb-connection';
import { MongoWebhookQueue } from './mongodb-webhook-queue';

/** The few filters the overview reads use, matched as the server would. */
function matches(doc: Document, filter: Filter<Document>): boolean {
  return Object.entries(filter).every(([field, condition]) => {
    const value = doc[field];
    if (condition && typeof condition === 'object' && !Array.isArray(condition)) {
      if ('$gt' in condition) return typeof value === 'number' && value > (condition.$gt as number);
      if ('$in' in condition) return (condition.$in as unknown[]).includes(value);
      if ('$gte' in condition) return typeof value === 'number' && value >= (condition.$gte as number);
    }
    return value === condition;
  });
}

/**
 * A queue over collections typed as the driver's, holding documents in memory: `find` with
 * `sort` and `limit`, `countDocuments`, and `aggregate` recording its pipeline.
 */
function queueOver(data: Record<string, Document[]>) {
  const pipelines: Document[][] = [];
  const counted: Filter<Document>[] = [];
  const collection = (name: string) => {
    const docs = data[name] ?? [];
    const fake: Pick<Collection<Document>, 'find' | 'countDocuments' | 'aggregate'> = {
      find: ((filter: Filter<Document>) => {
        let found = docs.filter((d) => matches(d, filter));
        const cursor = {
          sort: (spec: Record<string, 1 | -1>) => {
            found = [...found].sort((a, b) => {
              for (const [field, direction] of Object.entries(spec)) {
                if (a[field] < b[field]) return -direction;
                if (a[field] > b[field]) return direction;
              }
              return 0;
            });
            return cursor;
          },
          limit: (n: number) => {
            found = found.slice(0, n);
            return cursor;
          },
          toArray: async () => found,
        };
        return cursor;
      }) as unknown as Collection<Document>['find'],
      countDocuments: (async (filter: Filter<Document>) => {
        counted.push(filter);
        return docs.filter((d) => matches(d, filter)).length;
      }) as unknown as Collection<Document>['countDocuments'],
      aggregate: ((pipeline: Document[]) => {
        pipelines.push(pipeline);
        return { toArray: async () => [] };
      }) as unknown as Collection<Document>['aggregate'],
    };
    return fake as Collection<Document>;
  };
  const db = { collection } as unknown as Db;
  const client = { db: () => db } as unknown as MongoClient;
  return { queue: new MongoWebhookQueue(MongoConnection.over(client, 'ops'), false), pipelines, counted };
}

describe('MongoWebhookQueue across every subscription', () => {
  it('counts attempts per period off the attempted_at index, without a subscription filter', async () => {
    const { queue, pipelines } = queueOver({});
    await queue.countAllAttempts({ since: 7_200_000, bucketMs: 3_600_000 });
    expect(pipelines[0][0]).toEqual({ $match: { attempted_at: { $gte: 7_200_000 } } });
    expect(pipelines[0][1].$group._id).toEqual({
      $subtract: ['$attempted_at', { $mod: ['$attempted_at', 3_600_000] }],
    });
    await expect(queue.countAllAttempts({ since: 0, bucketMs: 0 })).rejects.toThrow('bucketMs');
  });

  it('counts the backlog with two counts led by the status (the due index)', async () => {
    const { queue, counted } = queueOver({
      webhook_deliveries: [
        { _id: 'a', status: 'pending', attempts: 0 },
        { _id: 'b', status: 'pending', attempts: 2 },
        { _id: 'c', status: 'pending', attempts: 0 },
        { _id: 'd', status: 'failed', attempts: 6 },
      ],
    });
    expect(await queue.deliveryBacklog()).toEqual({ pending: 2, retrying: 1 });
    expect(counted.every((f) => f.status === 'pending')).toBe(true);
  });

  it('joins paused routes and failing telemetry, most failures first, up to the limit', async () => {
    const { queue } = queueOver({
      webhook_routes: [
        { _id: 'whk_fine', workspace_id: 'ws_1', event_types: [], active: true },
        { _id: 'whk_failing', workspace_id: 'ws_2', event_types: [], active: true },
        { _id: 'whk_paused', workspace_id: 'ws_1', event_types: [], active: false },
        { _id: 'whk_worst', workspace_id: 'ws_3', event_types: [], active: false },
      ],
      webhook_telemetry: [
        { _id: 'whk_fine', failure_count: 0, last_attempt_at: 5 },
        { _id: 'whk_failing', failure_count: 1, last_attempt_at: 6, last_response_status: 500 },
        { _id: 'whk_worst', failure_count: 4, last_attempt_at: 7, last_response_status: null },
      ],
    });
    expect(await queue.troubledSubscriptions(10)).toEqual([
      {
        webhookId: 'whk_worst',
        workspaceId: 'ws_3',
        active: false,
        failureCount: 4,
        lastAttemptAt: 7,
        lastResponseStatus: null,
      },
      {
        webhookId: 'whk_failing',
        workspaceId: 'ws_2',
        active: true,
        failureCount: 1,
        lastAttemptAt: 6,
        lastResponseStatus: 500,
      },
      {
        webhookId: 'whk_paused',
        workspaceId: 'ws_1',
        active: false,
        failureCount: 0,
        lastAttemptAt: null,
        lastResponseStatus: null,
      },
    ]);
    expect((await queue.troubledSubscriptions(2)).map((s) => s.webhookId)).toEqual(['whk_worst', 'whk_failing']);
    expect(await queue.troubledSubscriptions(0)).toEqual([]);
  });
});
