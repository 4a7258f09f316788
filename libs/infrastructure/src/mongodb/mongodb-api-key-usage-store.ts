import { Collection } from 'mongodb';
import { ApiKeyUsageStore } from '@app/application/ports';
import { MongoConnection } from './mongodb-connection';

interface UsageDoc {
  /** The key id. */
  _id: string;
  lastUsedAt: number;
}

/**
 * API keys' last use in MongoDB (collection `api_key_usage`). A flush is one unordered bulk write
 * of `$max` upserts: a time never goes back, whichever instance flushes last.
 */
export class MongoApiKeyUsageStore implements ApiKeyUsageStore {
  private readonly usage: Collection<UsageDoc>;

  constructor(private readonly connection: MongoConnection) {
    this.usage = connection.db().collection<UsageDoc>('api_key_usage');
  }

  static async connect(connection: MongoConnection): Promise<MongoApiKeyUsageStore> {
    return new MongoApiKeyUsageStore(connection);
  }

  async record(uses: ReadonlyMap<string, number>): Promise<void> {
    if (uses.size === 0) return;
    await this.usage.bulkWrite(
      [...uses].map(([keyId, at]) => ({
        updateOne: { filter: { _id: keyId }, update: { $max: { lastUsedAt: at } }, upsert: true },
      })),
      { ordered: false },
    );
  }

  async lastUsed(keyIds: readonly string[]): Promise<Map<string, number>> {
    const found = new Map<string, number>();
    if (keyIds.length === 0) return found;
    for await (const doc of this.usage.find({ _id: { $in: [...keyIds] } })) found.set(doc._id, doc.lastUsedAt);
    return found;
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}
