import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { EventStore, ReadModelStore, SnapshotStore, SubjectKeyStore } from '@app/application';
import {
  SqliteEventStore,
  SqliteReadModelStore,
  SqliteSnapshotStore,
  SqliteSubjectKeyStore,
} from '@app/infrastructure/sqlite';
import { AppConfig, ConfigError } from './config';

/**
 * Picks the adapters for the configured storage mode. The scaled adapters are loaded only when
 * chosen, so the embedded default never loads the gRPC or MongoDB drivers.
 */
export async function openEventStore(config: AppConfig): Promise<EventStore> {
  if (config.eventStore === 'eventstoredb') {
    const { EventStoreDbEventStore } = await import('@app/infrastructure/eventstoredb');
    return EventStoreDbEventStore.connect(config.eventStoreDbUrl!);
  }
  return new SqliteEventStore(join(config.dataDir, 'events.db'));
}

export async function openReadModelStore(config: AppConfig): Promise<ReadModelStore> {
  if (config.readStore === 'mongodb') {
    const { MongoReadModelStore } = await import('@app/infrastructure/mongodb');
    return MongoReadModelStore.connect(config.mongodbUrl!);
  }
  return new SqliteReadModelStore(join(config.dataDir, 'read-models.db'));
}

const MONGO_KEYS_DB = 'workspace_operations_keys';

/**
 * Crypto-shredding keys, in a database of their own: `SUBJECT_KEY_STORE` (by default the read
 * store's kind). DATA_DIR/keys.db keeps the erasure promise; MongoDB's oplog keeps a destroyed
 * key for its window (docs/privacy.md).
 */
export async function openSubjectKeyStore(config: AppConfig): Promise<SubjectKeyStore> {
  if (config.subjectKeyStore === 'mongodb') {
    const { MongoSubjectKeyStore } = await import('@app/infrastructure/mongodb');
    return MongoSubjectKeyStore.connect(config.mongodbUrl!, MONGO_KEYS_DB);
  }
  const file = join(config.dataDir, 'keys.db');
  if (config.mongodbUrl && !existsSync(file)) await refuseToStrandMongoKeys(config.mongodbUrl);
  return new SqliteSubjectKeyStore(file);
}

/**
 * A deployment that kept its keys in MongoDB and now says SUBJECT_KEY_STORE=sqlite would start
 * on an empty keys.db: every member's personal data would read as erased. Refuse instead.
 */
async function refuseToStrandMongoKeys(mongodbUrl: string): Promise<void> {
  const { MongoSubjectKeyStore } = await import('@app/infrastructure/mongodb');
  const mongo = await MongoSubjectKeyStore.connect(mongodbUrl, MONGO_KEYS_DB);
  try {
    if (await mongo.holdsAnyKey()) {
      throw new ConfigError(
        `SUBJECT_KEY_STORE=sqlite, but the subject keys are in MongoDB (${MONGO_KEYS_DB}) and DATA_DIR has no keys.db: ` +
          'keep SUBJECT_KEY_STORE=mongodb, or move the keys first (docs/privacy.md)',
      );
    }
  } finally {
    await mongo.close();
  }
}

/** Aggregate snapshots are a cache beside the read models (MongoDB when scaled, else DATA_DIR/snapshots.db). */
export async function openSnapshotStore(config: AppConfig): Promise<SnapshotStore> {
  if (config.readStore === 'mongodb') {
    const { MongoSnapshotStore } = await import('@app/infrastructure/mongodb');
    return MongoSnapshotStore.connect(config.mongodbUrl!);
  }
  return new SqliteSnapshotStore(join(config.dataDir, 'snapshots.db'));
}
