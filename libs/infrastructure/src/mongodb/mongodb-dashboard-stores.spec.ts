import { AnyBulkWriteOperation, Collection, Db, Document, MongoClient } from 'mongodb';
import { MongoApiKeyUsageStore } from './mongodb-api-key-usage-store';
import { MongoConnection } from './mongodb-connection';
import { MongoDashboardAccessStore } from './mongodb-dashboard-access-store';

/** Every call made on collections typed as the driver's, by collection, with what the test has them answer. */
function recordingDb(answers: { findOneAndDelete?: Document | null; findOne?: Document | null } = {}) {
  const calls: Array<{ collection: string; method: string; args: unknown[] }> = [];
  const collection = (name: string) => {
    const record =
      (method: string, answer: unknown) =>
      async (...args: unknown[]) => {
        calls.push({ collection: name, method, args });
        return answer;
      };
    const fake: Pick<
      Collection<Document>,
      | 'createIndex'
      | 'insertOne'
      | 'findOneAndDelete'
      | 'findOne'
      | 'updateOne'
      | 'deleteOne'
      | 'deleteMany'
      | 'bulkWrite'
    > = {
      createIndex: record('createIndex', 'index') as unknown as Collection<Document>['createIndex'],
      insertOne: record('insertOne', {}) as unknown as Collection<Document>['insertOne'],
      findOneAndDelete: record(
        'findOneAndDelete',
        answers.findOneAndDelete ?? null,
      ) as unknown as Collection<Document>['findOneAndDelete'],
      findOne: record('findOne', answers.findOne ?? null) as unknown as Collection<Document>['findOne'],
      updateOne: record('updateOne', {}) as unknown as Collection<Document>['updateOne'],
      deleteOne: record('deleteOne', {}) as unknown as Collection<Document>['deleteOne'],
      deleteMany: record('deleteMany', { deletedCount: 1 }) as unknown as Collection<Document>['deleteMany'],
      bulkWrite: record('bulkWrite', {}) as unknown as Collection<Document>['bulkWrite'],
    };
    return fake as Collection<Document>;
  };
  const db = { collection } as unknown as Db;
  const client = { db: () => db } as unknown as MongoClient;
  return { connection: MongoConnection.over(client, 'ops'), calls };
}

describe('MongoDashboardAccessStore', () => {
  it('gives links and sessions TTL indexes on their expiry, so the server drops them', async () => {
    const { connection, calls } = recordingDb();
    await MongoDashboardAccessStore.connect(connection);
    expect(calls.filter((c) => c.method === 'createIndex')).toEqual([
      {
        collection: 'dashboard_links',
        method: 'createIndex',
        args: [{ purgeAt: 1 }, { name: 'purge_at_ttl', expireAfterSeconds: 0 }],
      },
      {
        collection: 'dashboard_sessions',
        method: 'createIndex',
        args: [{ purgeAt: 1 }, { name: 'purge_at_ttl', expireAfterSeconds: 0 }],
      },
    ]);
  });

  it('consumes a link with one findOneAndDelete on its digest (atomic, and never a query operator from the caller)', async () => {
    const link = { _id: 'hash', workspaceId: 'ws_1', memberId: 'usr_1', expiresAt: 2000, purgeAt: new Date(2000) };
    const { connection, calls } = recordingDb({ findOneAndDelete: link });
    const store = await MongoDashboardAccessStore.connect(connection);

    expect(await store.consumeLink('hash', 1000)).toEqual({
      tokenHash: 'hash',
      workspaceId: 'ws_1',
      memberId: 'usr_1',
      expiresAt: 2000,
    });
    expect(await store.consumeLink('hash', 2000)).toBeNull();
    const consumed = calls.filter((c) => c.method === 'findOneAndDelete');
    expect(consumed.map((c) => c.args)).toEqual([[{ _id: { $eq: 'hash' } }], [{ _id: { $eq: 'hash' } }]]);
  });

  it('moves a session’s activity forward only, and refuses one idle or past its end', async () => {
    const session = {
      _id: 'sid',
      workspaceId: 'ws_1',
      memberId: 'usr_1',
      createdAt: 0,
      lastSeenAt: 1000,
      expiresAt: 9000,
    };
    const { connection, calls } = recordingDb({ findOne: session });
    const store = await MongoDashboardAccessStore.connect(connection);

    await store.touchSession('sid', 5000);
    expect(calls.find((c) => c.method === 'updateOne')!.args).toEqual([
      { _id: { $eq: 'sid' }, lastSeenAt: { $lt: 5000 } },
      { $set: { lastSeenAt: 5000 } },
    ]);
    expect(await store.findSession('sid', 1500, 1000)).toMatchObject({ idHash: 'sid', lastSeenAt: 1000 });
    expect(await store.findSession('sid', 2000, 1000)).toBeNull();
    expect(await store.findSession('sid', 9000, 100_000)).toBeNull();
  });
});

describe('MongoApiKeyUsageStore', () => {
  it('writes a flush as one unordered bulk of $max upserts, and nothing for an empty one', async () => {
    const { connection, calls } = recordingDb();
    const store = await MongoApiKeyUsageStore.connect(connection);
    await store.record(new Map());
    await store.record(
      new Map([
        ['key_a', 1000],
        ['key_b', 2000],
      ]),
    );

    const bulks = calls.filter((c) => c.method === 'bulkWrite');
    expect(bulks).toHaveLength(1);
    const [operations, options] = bulks[0].args as [AnyBulkWriteOperation<Document>[], object];
    expect(bulks[0].collection).toBe('api_key_usage');
    expect(operations).toEqual([
      { updateOne: { filter: { _id: 'key_a' }, update: { $max: { lastUsedAt: 1000 } }, upsert: true } },
      { updateOne: { filter: { _id: 'key_b' }, update: { $max: { lastUsedAt: 2000 } }, upsert: true } },
    ]);
    expect(options).toEqual({ ordered: false });
  });

  it("adds a flush's requests to each key's UTC day with $inc upserts, indexed by key and day", async () => {
    const { connection, calls } = recordingDb();
    const store = await MongoApiKeyUsageStore.connect(connection);
    const day = Date.UTC(2026, 10, 2);
    await store.record(
      new Map([
        ['key_a', day + 1000],
        ['key_b', day + 2000],
      ]),
      new Map([['key_a', 3]]),
    );

    expect(calls.find((c) => c.method === 'createIndex')).toEqual({
      collection: 'api_key_daily_requests',
      method: 'createIndex',
      args: [{ keyId: 1, day: 1 }, { name: 'key_day' }],
    });
    const daily = calls.filter((c) => c.method === 'bulkWrite' && c.collection === 'api_key_daily_requests');
    expect(daily.map((c) => c.args)).toEqual([
      [
        [
          {
            updateOne: {
              filter: { _id: `key_a/${day}` },
              update: { $inc: { requests: 3 }, $setOnInsert: { keyId: 'key_a', day } },
              upsert: true,
            },
          },
        ],
        { ordered: false },
      ],
    ]);
  });
});
