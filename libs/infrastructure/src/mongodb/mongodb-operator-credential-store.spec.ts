import { Collection, Db, Document, MongoClient } from 'mongodb';
import { MongoConnection } from './mongodb-connection';
import { MongoOperatorCredentialStore } from './mongodb-operator-credential-store';

/** A collection typed as the driver's that records every call, answering `findOne` with `found`. */
function recordingDb(found: Document | null) {
  const calls: Array<{ method: string; args: unknown[] }> = [];
  const record =
    (method: string, answer: unknown) =>
    async (...args: unknown[]) => {
      calls.push({ method, args });
      return answer;
    };
  const fake: Pick<Collection<Document>, 'createIndex' | 'insertOne' | 'findOne' | 'updateOne'> = {
    createIndex: record('createIndex', 'index') as unknown as Collection<Document>['createIndex'],
    insertOne: record('insertOne', {}) as unknown as Collection<Document>['insertOne'],
    findOne: record('findOne', found) as unknown as Collection<Document>['findOne'],
    updateOne: record('updateOne', {}) as unknown as Collection<Document>['updateOne'],
  };
  const names: string[] = [];
  const db = {
    collection: (name: string) => {
      names.push(name);
      return fake as Collection<Document>;
    },
  } as unknown as Db;
  const client = { db: () => db } as unknown as MongoClient;
  return { connection: MongoConnection.over(client, 'ops'), calls, names };
}

const stored = {
  _id: 'opr_1',
  name: 'Night shift',
  role: 'auditor',
  tokenHash: 'digest',
  createdAt: 1000,
  revokedAt: null,
};

describe('MongoOperatorCredentialStore', () => {
  it('keeps credentials in their own collection with a unique index on the digest', async () => {
    const { connection, calls, names } = recordingDb(null);
    await MongoOperatorCredentialStore.connect(connection);
    expect(names).toEqual(['operator_credentials']);
    expect(calls.filter((c) => c.method === 'createIndex').map((c) => c.args)).toEqual([
      [{ tokenHash: 1 }, { name: 'token_hash_unique', unique: true }],
      [{ createdAt: 1, _id: 1 }, { name: 'created_at' }],
    ]);
  });

  it('looks a token up by its digest with $eq, so a caller never passes a query operator', async () => {
    const { connection, calls } = recordingDb(stored);
    const store = await MongoOperatorCredentialStore.connect(connection);
    expect(await store.findByTokenHash('digest')).toEqual({
      id: 'opr_1',
      name: 'Night shift',
      role: 'auditor',
      tokenHash: 'digest',
      createdAt: 1000,
      revokedAt: null,
    });
    expect(calls.find((c) => c.method === 'findOne')!.args).toEqual([{ tokenHash: { $eq: 'digest' } }]);
  });

  it('writes a revocation (only a first one) and a creation with a majority write concern', async () => {
    const { connection, calls } = recordingDb({ ...stored, revokedAt: 5000 });
    const store = await MongoOperatorCredentialStore.connect(connection);
    await store.create({ id: 'opr_2', name: 'n', role: 'operator', tokenHash: 'h', createdAt: 1, revokedAt: null });
    expect(await store.revoke('opr_1', 5000)).toMatchObject({ id: 'opr_1', revokedAt: 5000 });

    expect(calls.find((c) => c.method === 'insertOne')!.args[1]).toEqual({ writeConcern: { w: 'majority' } });
    expect(calls.find((c) => c.method === 'updateOne')!.args).toEqual([
      { _id: { $eq: 'opr_1' }, revokedAt: null },
      { $set: { revokedAt: 5000 } },
      { writeConcern: { w: 'majority' } },
    ]);
  });
});
