import { Collection, MongoServerError } from 'mongodb';
import { ClaimResult, IdempotencyClaim, IdempotencyStore, StoredResponse } from '@app/application/ports';
import { MongoConnection } from './mongodb-connection';

interface RecordDoc {
  /** `[scope, key]` as JSON: unambiguous whatever characters the key holds. */
  _id: string;
  scope: string;
  key: string;
  fingerprint: string;
  state: 'in_progress' | 'completed';
  owner: string | null;
  lockedUntil: number;
  /** Expiry in ms, compared with the `now` callers pass (the logic). */
  expiresAt: number;
  /** The same instant as a date, for the TTL index (MongoDB's own clean-up). */
  purgeAt: Date;
  status?: number;
  headers?: Record<string, string>;
  body?: string;
}

const COLLECTION = 'idempotency_records';
const DUPLICATE_KEY = 11000;

/**
 * Idempotency records in MongoDB, shared by every API instance of the scaled deployment.
 *
 * A claim is one conditional upsert on the record's `_id`: it matches only a record that is free
 * (expired, or in progress with its lock run out) and otherwise inserts; when a live record
 * exists, the insert fails on the unique `_id`, so exactly one of any number of racing claims
 * wins, on one server or many. Completing and releasing are guarded by the owner token.
 * A TTL index removes expired records in the background; `purgeExpired` does it on demand.
 */
export class MongoIdempotencyStore implements IdempotencyStore {
  private constructor(
    private readonly connection: MongoConnection,
    private readonly records: Collection<RecordDoc>,
  ) {}

  /**
   * Creates the collection's indexes, in the connection's database. The store closes the
   * connection (its handle) with itself.
   */
  static async connect(connection: MongoConnection): Promise<MongoIdempotencyStore> {
    try {
      const records = connection.db().collection<RecordDoc>(COLLECTION);
      await records.createIndex({ purgeAt: 1 }, { name: 'purge_at_ttl', expireAfterSeconds: 0 });
      return new MongoIdempotencyStore(connection, records);
    } catch (error) {
      await connection.close().catch(() => undefined);
      throw error;
    }
  }

  async claim(claim: IdempotencyClaim): Promise<ClaimResult> {
    const _id = JSON.stringify([claim.scope, claim.key]);
    const fresh: Omit<RecordDoc, '_id'> = {
      scope: claim.scope,
      key: claim.key,
      fingerprint: claim.fingerprint,
      state: 'in_progress',
      owner: claim.owner,
      lockedUntil: claim.lockedUntil,
      expiresAt: claim.expiresAt,
      purgeAt: new Date(claim.expiresAt),
    };
    // A record can change between the failed upsert and the read (released, or its time ran
    // out): then the claim is simply tried again.
    for (let attempt = 0; attempt < 10; attempt++) {
      try {
        await this.records.updateOne(
          {
            _id,
            $or: [{ expiresAt: { $lte: claim.now } }, { state: 'in_progress', lockedUntil: { $lte: claim.now } }],
          },
          { $set: fresh, $unset: { status: '', headers: '', body: '' } },
          { upsert: true },
        );
        return { outcome: 'claimed' };
      } catch (error) {
        if (!(error instanceof MongoServerError && error.code === DUPLICATE_KEY)) throw error;
      }
      const existing = await this.records.findOne({ _id });
      if (!existing || isFree(existing, claim.now)) continue;
      if (existing.state === 'completed') {
        return {
          outcome: 'completed',
          fingerprint: existing.fingerprint,
          response: { status: existing.status!, headers: existing.headers ?? {}, body: existing.body ?? '' },
        };
      }
      return { outcome: 'in_progress', fingerprint: existing.fingerprint };
    }
    throw new Error(`Idempotency key claim kept racing for ${_id}`);
  }

  async complete(scope: string, key: string, owner: string, response: StoredResponse): Promise<boolean> {
    const result = await this.records.updateOne(
      { _id: JSON.stringify([scope, key]), owner, state: 'in_progress' },
      {
        $set: {
          state: 'completed',
          owner: null,
          status: response.status,
          headers: response.headers,
          body: response.body,
        },
      },
    );
    return result.matchedCount === 1;
  }

  async release(scope: string, key: string, owner: string): Promise<void> {
    await this.records.deleteOne({ _id: JSON.stringify([scope, key]), owner, state: 'in_progress' });
  }

  async purgeExpired(now: number): Promise<number> {
    return (await this.records.deleteMany({ expiresAt: { $lte: now } })).deletedCount;
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}

function isFree(record: RecordDoc, now: number): boolean {
  return record.expiresAt <= now || (record.state === 'in_progress' && record.lockedUntil <= now);
}
