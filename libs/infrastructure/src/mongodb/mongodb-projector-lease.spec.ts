import { Collection, Db, Document, MongoClient, MongoServerError, UpdateResult } from 'mongodb';
import { ProjectorLockHeldError } from '@app/application/ports';
import { MongoConnection } from './mongodb-connection';
import { MongoProjectorLease } from './mongodb-projector-lease';

const result = (matchedCount: number) => ({ matchedCount }) as UpdateResult;
const duplicateKey = () => new MongoServerError({ message: 'E11000 duplicate key error', code: 11000 });

/** A lease over a `projector_lease` collection typed as the driver's, answering as `updateOne` says. */
function leaseOver(updateOne: (filter: Document, update: Document | Document[]) => Promise<UpdateResult>) {
  const calls: { filter: Document; update: Document | Document[] }[] = [];
  const collection: Pick<Collection<Document>, 'updateOne' | 'findOne'> = {
    updateOne: (async (filter: Document, update: Document | Document[]) => {
      calls.push({ filter, update });
      return updateOne(filter, update);
    }) as Collection<Document>['updateOne'],
    findOne: (async () => ({
      _id: 'projector',
      owner: 'other:1:ab',
      lease_until: new Date('2030-01-01T00:00:00Z'),
    })) as unknown as Collection<Document>['findOne'],
  };
  const db = { collection: () => collection } as unknown as Db;
  const client = { db: () => db, close: jest.fn(async () => undefined) };
  const connection = MongoConnection.over(client as unknown as MongoClient, 'ops');
  return { calls, client, connection };
}

describe('MongoProjectorLease', () => {
  it('takes the lease with one upsert that matches its own lease or one run out on the server clock', async () => {
    const { calls, connection } = leaseOver(async () => result(1));
    const lease = new MongoProjectorLease(connection, { owner: 'me', leaseMs: 10_000 });
    const hold = await lease.acquire({ waitMs: 0 });
    expect(calls[0]).toEqual({
      filter: { _id: 'projector', $or: [{ owner: 'me' }, { $expr: { $lte: ['$lease_until', '$$NOW'] } }] },
      update: [{ $set: { owner: { $literal: 'me' }, lease_until: { $add: ['$$NOW', 10_000] } } }],
    });
    await hold.release();
  });

  it("waits while another owner's lease runs (the upsert collides on _id), then refuses, naming the holder", async () => {
    const { calls, connection } = leaseOver(async () => {
      throw duplicateKey();
    });
    const lease = new MongoProjectorLease(connection, { owner: 'me', retryMs: 20 });
    let waits = 0;
    const refused = lease.acquire({ waitMs: 100, onWait: () => waits++ });
    await expect(refused).rejects.toThrow(ProjectorLockHeldError);
    await expect(refused).rejects.toThrow('held by other:1:ab until 2030-01-01T00:00:00.000Z');
    expect(waits).toBe(1);
    expect(calls.length).toBeGreaterThan(2);
  });

  it('reports the lease lost once when a renewal finds another owner, and stops renewing', async () => {
    let renewals = 0;
    const { calls, client, connection } = leaseOver(async (filter) => {
      if (!('owner' in filter)) return result(1); // taking it
      renewals++;
      return result(0); // another process holds it now
    });
    const lease = new MongoProjectorLease(connection, { owner: 'me', leaseMs: 90 });
    const lost: string[] = [];
    await lease.acquire({ waitMs: 0, onLost: (reason) => lost.push(reason) });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(lost).toEqual([expect.stringContaining('taken over')]);
    expect(renewals).toBe(1);
    expect(calls[1]).toEqual({
      filter: { _id: 'projector', owner: 'me' },
      update: [{ $set: { lease_until: { $add: ['$$NOW', 90] } } }],
    });
    expect(client.close).toHaveBeenCalledTimes(1);
  });

  it('reports it lost when renewals fail until it may have run out', async () => {
    const { connection } = leaseOver(async (filter) => {
      if (!('owner' in filter)) return result(1);
      throw new Error('server unreachable');
    });
    const lease = new MongoProjectorLease(connection, { owner: 'me', leaseMs: 90 });
    const lost: string[] = [];
    await lease.acquire({ waitMs: 0, onLost: (reason) => lost.push(reason) });
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(lost).toEqual([expect.stringContaining('could not be renewed in time: server unreachable')]);
  });

  it('lets the next projector in at release, and closes its connection handle', async () => {
    const { calls, client, connection } = leaseOver(async () => result(1));
    const lease = new MongoProjectorLease(connection, { owner: 'me' });
    const hold = await lease.acquire({ waitMs: 0 });
    await hold.release();
    await hold.release();
    expect(calls.at(-1)).toEqual({
      filter: { _id: 'projector', owner: 'me' },
      update: { $set: { owner: null, lease_until: new Date(0) } },
    });
    expect(client.close).toHaveBeenCalledTimes(1);
  });
});
