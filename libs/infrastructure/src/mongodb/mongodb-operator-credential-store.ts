import { Collection } from 'mongodb';
import { OperatorCredentialRecord, OperatorCredentialStore, OperatorRole } from '@app/application/ports';
import { MongoConnection } from './mongodb-connection';

interface CredentialDoc {
  _id: string;
  name: string;
  role: OperatorRole;
  tokenHash: string;
  createdAt: number;
  revokedAt: number | null;
}

const COLLECTION = 'operator_credentials';
const MAJORITY = { writeConcern: { w: 'majority' as const } };

const toRecord = (doc: CredentialDoc): OperatorCredentialRecord => ({
  id: doc._id,
  name: doc.name,
  role: doc.role,
  tokenHash: doc.tokenHash,
  createdAt: doc.createdAt,
  revokedAt: doc.revokedAt,
});

/**
 * Operator credentials in MongoDB, shared by every instance of the scaled deployment. The digest
 * has a unique index (the lookup of every request that presents a credential). Writes wait for a
 * majority and reads go to the primary (the driver's default read preference), so a revocation
 * acknowledged to one instance is seen by the next request to any other.
 */
export class MongoOperatorCredentialStore implements OperatorCredentialStore {
  private constructor(
    private readonly connection: MongoConnection,
    private readonly credentials: Collection<CredentialDoc>,
  ) {}

  /** Creates the indexes, in the connection's database; the store closes the connection with itself. */
  static async connect(connection: MongoConnection): Promise<MongoOperatorCredentialStore> {
    try {
      const credentials = connection.db().collection<CredentialDoc>(COLLECTION);
      await credentials.createIndex({ tokenHash: 1 }, { name: 'token_hash_unique', unique: true });
      await credentials.createIndex({ createdAt: 1, _id: 1 }, { name: 'created_at' });
      return new MongoOperatorCredentialStore(connection, credentials);
    } catch (error) {
      await connection.close().catch(() => undefined);
      throw error;
    }
  }

  async create(record: OperatorCredentialRecord): Promise<void> {
    await this.credentials.insertOne(
      {
        _id: record.id,
        name: record.name,
        role: record.role,
        tokenHash: record.tokenHash,
        createdAt: record.createdAt,
        revokedAt: record.revokedAt,
      },
      MAJORITY,
    );
  }

  async findByTokenHash(tokenHash: string): Promise<OperatorCredentialRecord | null> {
    const doc = await this.credentials.findOne({ tokenHash: { $eq: tokenHash } });
    return doc ? toRecord(doc) : null;
  }

  async findById(id: string): Promise<OperatorCredentialRecord | null> {
    const doc = await this.credentials.findOne({ _id: { $eq: id } });
    return doc ? toRecord(doc) : null;
  }

  async list(): Promise<OperatorCredentialRecord[]> {
    const docs = await this.credentials.find({}).sort({ createdAt: 1, _id: 1 }).toArray();
    return docs.map(toRecord);
  }

  async revoke(id: string, at: number): Promise<OperatorCredentialRecord | null> {
    await this.credentials.updateOne({ _id: { $eq: id }, revokedAt: null }, { $set: { revokedAt: at } }, MAJORITY);
    const doc = await this.credentials.findOne({ _id: { $eq: id } });
    return doc ? toRecord(doc) : null;
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}
