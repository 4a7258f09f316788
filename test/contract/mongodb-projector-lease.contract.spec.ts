import { ProjectorLockHeldError } from '@app/application/ports';
import { MongoConnection, MongoProjectorLease } from '@app/infrastructure/mongodb';
import { dropDatabase, freshDbName, onMongoDb } from './mongodb-server';
import { projectorLockContract } from './projector-lock.contract';

// Every test gets a database of its own, dropped after it; each lease has its own client, as two processes would.
onMongoDb('ProjectorLock contract', (url) => {
  const connect = (databaseName: string) => MongoConnection.open(url, { databaseName });

  projectorLockContract('mongodb', async () => {
    const databaseName = freshDbName();
    const connections = [await connect(databaseName), await connect(databaseName)];
    return {
      // Each lease closes its handle when released; the contract releases what it took.
      first: new MongoProjectorLease(connections[0].share(), { owner: 'first' }),
      second: new MongoProjectorLease(connections[1].share(), { owner: 'second' }),
      close: async () => {
        for (const connection of connections) await connection.close();
        await dropDatabase(url, databaseName);
      },
    };
  });

  describe('MongoProjectorLease: a holder that stops renewing', () => {
    it('is taken over once its lease has run out, and the old holder is told it lost it', async () => {
      const databaseName = freshDbName();
      const [a, b] = [await connect(databaseName), await connect(databaseName)];
      try {
        const lost: string[] = [];
        // Renewed later than it runs out, as by a process frozen for a while.
        const first = new MongoProjectorLease(a.share(), { owner: 'first', leaseMs: 600, renewEveryMs: 1_500 });
        const second = new MongoProjectorLease(b.share(), { owner: 'second', leaseMs: 600 });
        const hold = await first.acquire({ waitMs: 0, onLost: (reason) => lost.push(reason) });
        await expect(second.acquire({ waitMs: 0 })).rejects.toThrow(ProjectorLockHeldError);
        const taken = await second.acquire({ waitMs: 5_000 });
        expect(lost).toEqual([]);
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        expect(lost).toEqual([expect.stringContaining('taken over')]);
        await hold.release().catch(() => undefined);
        await taken.release();
      } finally {
        await a.close().catch(() => undefined);
        await b.close();
        await dropDatabase(url, databaseName);
      }
    });
  });
});
