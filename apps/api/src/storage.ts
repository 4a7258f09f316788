import { join } from 'node:path';
import type { EventStore, ReadModelStore, SnapshotStore, SubjectKeyStore } from '@app/application';
import { SqliteEventStore, SqliteReadModelStore, SqliteSnapshotStore, SqliteSubjectKeyStore } from '@app/infrastructure/sqlite';
import type { AppConfig } from './config';

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

/** Crypto-shredding keys live beside the read models' store kind, in a database of their own. */
export async function openSubjectKeyStore(config: AppConfig): Promise<SubjectKeyStore> {
  if (config.readStore === 'mongodb') {
    const { MongoSubjectKeyStore } = await import('@app/infrastructure/mongodb');
    return MongoSubjectKeyStore.connect(config.mongodbUrl!, 'workspace_operations_keys');
  }
  return new SqliteSubjectKeyStore(join(config.dataDir, 'keys.db'));
}

/** Aggregate snapshots are a cache beside the read models (MongoDB when scaled, else DATA_DIR/snapshots.db). */
export async function openSnapshotStore(config: AppConfig): Promise<SnapshotStore> {
  if (config.readStore === 'mongodb') {
    const { MongoSnapshotStore } = await import('@app/infrastructure/mongodb');
    return MongoSnapshotStore.connect(config.mongodbUrl!);
  }
  return new SqliteSnapshotStore(join(config.dataDir, 'snapshots.db'));
}
