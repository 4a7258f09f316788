import { ClientSession, Db, MongoClient } from 'mongodb';

/**
 * Multi-document transactions exist on a replica set or behind mongos, never on a standalone
 * server: the stores ask once at connect and write without a session where there are none.
 */
export async function supportsTransactions(db: Db): Promise<boolean> {
  const hello = await db
    .admin()
    .command({ hello: 1 })
    .catch(() => db.admin().command({ isMaster: 1 })); // servers before 4.4.2 only know isMaster
  return typeof hello.setName === 'string' || hello.msg === 'isdbgrid';
}

/**
 * Runs `work` in one transaction where the deployment has them (else as it is). The driver's
 * withTransaction retries the whole callback on transient errors, so `work` must only write, and
 * reset anything it collects at its start.
 */
export async function inTransaction(
  client: MongoClient,
  transactions: boolean,
  work: (session?: ClientSession) => Promise<void>,
): Promise<void> {
  if (!transactions) return work();
  const session = client.startSession();
  try {
    await session.withTransaction(() => work(session));
  } finally {
    await session.endSession();
  }
}
