import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';

/**
 * The MongoDB contract suites run against a real server when MONGODB_URL is set (e.g.
 * `docker compose -f docker-compose.test.yml up -d mongodb` then
 * `MONGODB_URL='mongodb://localhost:27017/?replicaSet=rs0&directConnection=true' npx jest test/contract`),
 * and are skipped, saying how to run them, otherwise.
 *
 * `suite` gets the URL and a database of its own, dropped once the file's tests are done.
 */
export function onMongoDb(name: string, suite: (url: string, dbName: string) => void): void {
  const url = process.env.MONGODB_URL;
  if (!url) {
    describe(`${name}: mongodb`, () => {
      it.skip('needs a server: set MONGODB_URL (docker compose -f docker-compose.test.yml up -d mongodb) to run it', () =>
        undefined);
    });
    return;
  }
  const dbName = freshDbName();
  suite(url, dbName);
  afterAll(() => dropDatabase(url, dbName));
}

export const freshDbName = () => `contract_${randomUUID().replace(/-/g, '')}`;

export async function dropDatabase(url: string, dbName: string): Promise<void> {
  const client = new MongoClient(url);
  try {
    await client.connect();
    await client.db(dbName).dropDatabase();
  } finally {
    await client.close();
  }
}
