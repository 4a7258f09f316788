import { randomBytes } from 'node:crypto';
import { Binary, Collection } from 'mongodb';
import { SubjectKeyStore } from '@app/application/ports';
import { MongoConnection } from './mongodb-connection';

interface KeyRow {
  _id: string;
  key: Binary | null;
  destroyed_at: Date | null;
}

/**
 * Crypto-shredding keys in MongoDB (collection `subject_keys`). A destroyed key is unset and the
 * document kept as a tombstone, so a destroyed subject never silently gets a new key. Keep this
 * database out of backups that outlive an erasure request, or erasure does not reach them.
 */
export class MongoSubjectKeyStore implements SubjectKeyStore {
  private readonly keys: Collection<KeyRow>;

  /**
   * In database `databaseName` of the connection's deployment (the keys are kept apart from the
   * read models), else the connection's own. The store closes the connection (its handle) with itself.
   */
  constructor(
    private readonly connection: MongoConnection,
    databaseName?: string,
  ) {
    this.keys = connection.db(databaseName).collection<KeyRow>('subject_keys');
  }

  static async connect(connection: MongoConnection, databaseName?: string): Promise<MongoSubjectKeyStore> {
    return new MongoSubjectKeyStore(connection, databaseName);
  }

  async getOrCreate(subjectId: string): Promise<Buffer | null> {
    // Insert-if-absent: concurrent first uses agree on one key.
    await this.keys.updateOne(
      { _id: subjectId },
      { $setOnInsert: { key: new Binary(randomBytes(32)), destroyed_at: null } },
      { upsert: true },
    );
    return this.get(subjectId);
  }

  async get(subjectId: string): Promise<Buffer | null> {
    const row = await this.keys.findOne({ _id: { $eq: subjectId } });
    return row?.key ? Buffer.from(row.key.buffer) : null;
  }

  async destroy(subjectId: string): Promise<void> {
    await this.keys.updateOne({ _id: subjectId }, { $set: { key: null, destroyed_at: new Date() } }, { upsert: true });
  }

  /** Whether any subject ever had a key here (live or destroyed): a start-up check, not part of the port. */
  async holdsAnyKey(): Promise<boolean> {
    return (await this.keys.findOne({}, { projection: { _id: 1 } })) !== null;
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}
