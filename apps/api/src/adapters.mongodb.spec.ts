import { Db, MongoClient } from 'mongodb';
import type { AppConfig } from './config';
import {
  acquireProjectorLock,
  openIdempotencyStore,
  openReadModelStore,
  openSnapshotStore,
  openSubjectKeyStore,
  openWebhookQueue,
} from './adapters';

/**
 * What the MongoDB adapters ask of their clients, recorded: which clients connected, which
 * databases and collections were opened on them, and when a client was closed. The driver's
 * MongoClient is the real one (its URL parsing, its options, and a constructor that does not
 * connect); only the calls that would reach a server answer here, so no server is needed.
 */
const clients = new Map<MongoClient, { connects: number; closes: number; closedAfter: string[] }>();
const collections: string[] = [];
/** The adapters whose close has been called, in order. */
const closedAdapters: string[] = [];

function recordOf(client: MongoClient) {
  let record = clients.get(client);
  if (!record) clients.set(client, (record = { connects: 0, closes: 0, closedAfter: [] }));
  return record;
}

beforeEach(() => {
  clients.clear();
  collections.length = 0;
  closedAdapters.length = 0;
  jest.spyOn(MongoClient.prototype, 'connect').mockImplementation(async function (this: MongoClient) {
    recordOf(this).connects += 1;
    return this;
  });
  jest.spyOn(MongoClient.prototype, 'close').mockImplementation(async function (this: MongoClient) {
    const record = recordOf(this);
    record.closes += 1;
    record.closedAfter = [...closedAdapters];
  });
  jest.spyOn(MongoClient.prototype, 'db').mockImplementation(function (this: MongoClient, name?: string) {
    // The driver's own default: the URL's path, else `test`.
    const databaseName = name || this.options.dbName;
    const collection = (collectionName: string) => {
      collections.push(`${databaseName}.${collectionName}`);
      return {
        collectionName,
        createIndex: async () => 'index',
        dropIndex: async () => undefined,
        updateOne: async () => ({ matchedCount: 1 }),
      };
    };
    return {
      databaseName,
      collection,
      admin: () => ({ command: async () => ({ setName: 'rs0' }) }),
      listCollections: (filter: { name: string }) => ({
        toArray: async () => {
          collections.push(`${databaseName}.${filter.name}`);
          return [{ name: filter.name }];
        },
      }),
    } as unknown as Db;
  });
});
afterEach(() => jest.restoreAllMocks());

describe('the MongoDB adapters of one process', () => {
  const config = {
    readStore: 'mongodb',
    subjectKeyStore: 'mongodb',
    projections: 'inline',
    // The compose file's URL: no database in its path.
    mongodbUrl: 'mongodb://mongodb:27017/?replicaSet=rs0',
  } as AppConfig;

  const openAll = async () => ({
    'read models': await openReadModelStore(config),
    snapshots: await openSnapshotStore(config),
    idempotency: await openIdempotencyStore(config),
    'webhook queue': await openWebhookQueue(config),
    'subject keys': await openSubjectKeyStore(config),
    'projector lease': await projectorLease(),
  });
  const projectorLease = async () => {
    const lease = await acquireProjectorLock(config, { warn: () => undefined }, () => undefined);
    return { close: () => lease.release() };
  };

  it('share one client, connected once and closed once, after the last adapter', async () => {
    const adapters = await openAll();
    expect([...clients.values()]).toHaveLength(1);
    expect([...clients.values()][0].connects).toBe(1);
    for (const [name, adapter] of Object.entries(adapters)) {
      expect([...clients.values()][0].closes).toBe(0);
      closedAdapters.push(name);
      await adapter.close();
    }
    expect([...clients.values()][0]).toEqual({ connects: 1, closes: 1, closedAfter: Object.keys(adapters) });
  });

  it('open a client again once every adapter has closed the last one', async () => {
    const first = await openSnapshotStore(config);
    await first.close();
    const second = await openSnapshotStore(config);
    expect([...clients.values()].map((client) => client.closes)).toEqual([1, 0]);
    await second.close();
  });

  it('keep every collection in the documented database when MONGODB_URL names none, and the keys in theirs', async () => {
    const adapters = await openAll();
    const databases = new Set(collections.map((name) => name.split('.')[0]));
    expect([...databases].sort()).toEqual(['workspace_operations', 'workspace_operations_keys']);
    expect(collections).toContain('workspace_operations.snapshots');
    expect(collections).toContain('workspace_operations.idempotency_records');
    expect(collections).toContain('workspace_operations.webhook_deliveries');
    expect(collections).toContain('workspace_operations._checkpoints');
    expect(collections).toContain('workspace_operations_keys.subject_keys');
    expect(collections).toContain('workspace_operations.projector_lease');
    for (const adapter of Object.values(adapters)) await adapter.close();
  });

  it('keep them in the database MONGODB_URL names in its path', async () => {
    const named = { ...config, mongodbUrl: 'mongodb://a:27017,b:27017/ops_eu?replicaSet=rs0' } as AppConfig;
    const snapshots = await openSnapshotStore(named);
    const queue = await openWebhookQueue(named);
    expect(collections).toContain('ops_eu.snapshots');
    expect(collections).toContain('ops_eu.webhook_deliveries');
    await snapshots.close();
    await queue.close();
  });
});
