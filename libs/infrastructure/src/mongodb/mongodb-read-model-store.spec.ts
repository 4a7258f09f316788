import { AnyBulkWriteOperation, Collection, Db, Document, MongoClient } from 'mongodb';
import { MongoConnection } from './mongodb-connection';
import { MongoReadModelStore } from './mongodb-read-model-store';

/**
 * A store over collections typed as the driver's, every named collection existing, recording per
 * collection the bulk writes it sends, the indexes it makes and the finds it sends.
 */
function recordingStore() {
  const writes = new Map<string, AnyBulkWriteOperation<Document>[]>();
  const indexes: Array<[string, Document, string]> = [];
  const finds: Array<[string, Document, Document]> = [];
  const collection = (name: string) => {
    const fake: Pick<Collection<Document>, 'bulkWrite' | 'createIndex' | 'dropIndex' | 'find'> = {
      bulkWrite: async (models) => {
        writes.set(name, [...(writes.get(name) ?? []), ...models]);
        return {} as Awaited<ReturnType<Collection['bulkWrite']>>;
      },
      createIndex: (async (spec: Document, options: { name: string }) => {
        indexes.push([name, spec, options.name]);
        return options.name;
      }) as unknown as Collection<Document>['createIndex'],
      dropIndex: async () => ({}),
      find: ((filter: Document, options: Document) => {
        finds.push([name, filter, options]);
        return { toArray: async () => [] };
      }) as unknown as Collection<Document>['find'],
    };
    return fake as Collection<Document>;
  };
  const db: Pick<Db, 'collection' | 'listCollections'> = {
    collection: collection as Db['collection'],
    listCollections: ((filter: { name: string }) => ({
      toArray: async () => [{ name: filter.name }],
    })) as unknown as Db['listCollections'],
  };
  const client = { db: () => db } as unknown as MongoClient;
  const store = new MongoReadModelStore(MongoConnection.over(client, 'ops'), false);
  return { store, writes, indexes, finds };
}

describe('MongoReadModelStore writes', () => {
  it('moves checkpoints with $max, so a late batch cannot move one back', async () => {
    const { store, writes } = recordingStore();
    await store.apply([], { jobs: 12 });
    expect(writes.get('_checkpoints')).toEqual([
      { updateOne: { filter: { _id: 'jobs' }, update: { $max: { position: 12 } }, upsert: true } },
    ]);
  });

  it('guards every write stamped with its position against documents that reflect a later event', async () => {
    const { store, writes } = recordingStore();
    await store.init([{ name: 'jobs' }]);
    await store.apply(
      [
        { op: 'put', collection: 'jobs', id: 'j1', workspaceId: 'w', seq: 3, version: 1, doc: { s: 'a' }, at: 7 },
        { op: 'merge', collection: 'jobs', id: 'j2', set: { s: 'b', gone: undefined }, at: 7 },
        { op: 'delete', collection: 'jobs', id: 'j3', at: 7 },
        { op: 'deleteWhere', collection: 'jobs', workspaceId: 'w', where: { s: 'c' }, at: 7 },
      ],
      { jobs: 7 },
    );
    const notLater = { _at: { $not: { $gt: 7 } } };
    expect(writes.get('rm_jobs')).toEqual([
      {
        updateOne: {
          filter: { _id: 'j1' },
          update: [
            {
              $replaceWith: {
                $cond: [
                  { $gt: ['$_at', 7] },
                  '$$ROOT',
                  { $literal: { _id: 'j1', s: 'a', _ws: 'w', _seq: 3, _v: 1, _at: 7 } },
                ],
              },
            },
          ],
          upsert: true,
        },
      },
      {
        updateOne: {
          filter: { _id: 'j2', ...notLater },
          update: { $set: { s: 'b', _at: 7 }, $unset: { gone: '' } },
          upsert: false,
        },
      },
      { deleteOne: { filter: { _id: 'j3', ...notLater } } },
      { deleteMany: { filter: { _ws: { $eq: 'w' }, s: { $eq: 'c' }, ...notLater } } },
    ]);
  });

  it('writes an op without a position as it is', async () => {
    const { store, writes } = recordingStore();
    await store.init([{ name: 'jobs' }]);
    await store.apply([{ op: 'put', collection: 'jobs', id: 'j1', workspaceId: null, seq: 1, doc: {} }], {});
    expect(writes.get('rm_jobs')).toEqual([
      { replaceOne: { filter: { _id: 'j1' }, replacement: { _ws: null, _seq: 1, _v: 0 }, upsert: true } },
    ]);
  });
});

describe('MongoReadModelStore reads of the audit feed', () => {
  it('indexes dotted paths in list order and the list order alone, and reads newest first below a position', async () => {
    const { store, indexes, finds } = recordingStore();
    await store.init([
      {
        name: 'audit_events',
        workspaceIndexes: ['type', 'actor.type'],
        orderedIndexes: ['actor.id', 'request_id'],
        listedAcrossWorkspaces: 'indexed',
      },
    ]);
    expect(indexes.map(([, spec, name]) => [name, spec])).toEqual(
      expect.arrayContaining([
        ['seq_id', { _seq: 1, _id: 1 }],
        ['actor__id_seq_id', { 'actor.id': 1, _seq: 1, _id: 1 }],
        ['request_id_seq_id', { request_id: 1, _seq: 1, _id: 1 }],
        ['ws_actor__type_seq_id', { _ws: 1, 'actor.type': 1, _seq: 1, _id: 1 }],
      ]),
    );

    await store.find('audit_events', {
      where: { 'actor.id': 'key_1', type: { in: ['project.created'] } },
      descending: true,
      beforeSeq: 40,
      afterSeq: 10,
      limit: 51,
    });
    expect(finds).toEqual([
      [
        'rm_audit_events',
        { 'actor.id': { $eq: 'key_1' }, type: { $in: ['project.created'] }, _seq: { $gt: 10, $lt: 40 } },
        { sort: { _seq: -1, _id: -1 }, limit: 51 },
      ],
    ]);
    await expect(store.find('audit_events', { where: { 'actor.$where': 'x' }, limit: 1 })).rejects.toThrow(
      'Invalid field name',
    );
  });
});
