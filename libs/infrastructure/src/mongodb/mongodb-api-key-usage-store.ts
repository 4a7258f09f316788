import { Collection } from 'mongodb';
import { ApiKeyUsageStore, DailyRequests, dayOf, firstDayKept } from '@app/application/ports';
import { MongoConnection } from './mongodb-connection';

interface UsageDoc {
  /** The key id. */
  _id: string;
  lastUsedAt: number;
}

/** One key's requests on one UTC day; `_id` is `<keyId>/<day>`. */
interface DailyDoc {
  _id: string;
  keyId: string;
  day: number;
  requests: number;
}

/**
 * API keys' last use in MongoDB (collection `api_key_usage`) and their requests per day
 * (`api_key_daily_requests`). A flush is one unordered bulk write of `$max` upserts (a time never
 * goes back, whichever instance flushes last), and one of `$inc` upserts of the day's counts.
 */
export class MongoApiKeyUsageStore implements ApiKeyUsageStore {
  private readonly usage: Collection<UsageDoc>;
  private readonly daily: Collection<DailyDoc>;

  constructor(private readonly connection: MongoConnection) {
    this.usage = connection.db().collection<UsageDoc>('api_key_usage');
    this.daily = connection.db().collection<DailyDoc>('api_key_daily_requests');
  }

  static async connect(connection: MongoConnection): Promise<MongoApiKeyUsageStore> {
    const store = new MongoApiKeyUsageStore(connection);
    await store.daily.createIndex({ keyId: 1, day: 1 }, { name: 'key_day' });
    await store.daily.createIndex({ day: 1 }, { name: 'day' });
    return store;
  }

  async record(uses: ReadonlyMap<string, number>, requests: ReadonlyMap<string, number> = new Map()): Promise<void> {
    if (uses.size === 0) return;
    await this.usage.bulkWrite(
      [...uses].map(([keyId, at]) => ({
        updateOne: { filter: { _id: keyId }, update: { $max: { lastUsedAt: at } }, upsert: true },
      })),
      { ordered: false },
    );
    await this.daily.deleteMany({ day: { $lt: firstDayKept(Math.max(...uses.values())) } });
    const counted = [...uses].filter(([keyId]) => (requests.get(keyId) ?? 0) > 0);
    if (counted.length === 0) return;
    await this.daily.bulkWrite(
      counted.map(([keyId, at]) => {
        const day = dayOf(at);
        return {
          updateOne: {
            filter: { _id: `${keyId}/${day}` },
            update: { $inc: { requests: requests.get(keyId)! }, $setOnInsert: { keyId, day } },
            upsert: true,
          },
        };
      }),
      { ordered: false },
    );
  }

  async dailyRequests(keyIds: readonly string[], sinceDay: number): Promise<DailyRequests[]> {
    if (keyIds.length === 0) return [];
    const rows = await this.daily
      .find({ keyId: { $in: [...keyIds] }, day: { $gte: sinceDay } }, { sort: { keyId: 1, day: 1 } })
      .toArray();
    return rows.map((row) => ({ keyId: row.keyId, day: row.day, requests: row.requests }));
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
