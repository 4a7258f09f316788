import { join } from 'node:path';
import type { IdempotencyStore, RateLimitStore } from '@app/application';
import { MemoryRateLimitStore } from '@app/infrastructure/memory';
import { SqliteIdempotencyStore } from '@app/infrastructure/sqlite';
import type { AppConfig } from '../config';

/**
 * Picks the adapters of the limits for the configured mode, like storage.ts does for events and
 * read models: the Redis and MongoDB drivers are loaded only when chosen.
 */
export async function openRateLimitStore(config: AppConfig): Promise<RateLimitStore> {
  if (config.rateLimitStore === 'redis') {
    const { RedisRateLimitStore } = await import('@app/infrastructure/redis');
    return RedisRateLimitStore.connect(config.redisUrl!);
  }
  return new MemoryRateLimitStore();
}

/**
 * Idempotency records live with the read models: in MongoDB for the scaled deployment (every
 * instance must see every key), otherwise in `DATA_DIR/idempotency.db`.
 */
export async function openIdempotencyStore(config: AppConfig): Promise<IdempotencyStore> {
  if (config.readStore === 'mongodb') {
    const { MongoIdempotencyStore } = await import('@app/infrastructure/mongodb');
    return MongoIdempotencyStore.connect(config.mongodbUrl!);
  }
  return new SqliteIdempotencyStore(join(config.dataDir, 'idempotency.db'));
}
