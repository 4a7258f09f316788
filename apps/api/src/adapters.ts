import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ProjectorLockHeldError } from '@app/application';
import type {
  ApiKeyUsageStore,
  DashboardAccessStore,
  OperatorCredentialStore,
  EventStore,
  HeldProjectorLock,
  HostResolver,
  IdempotencyStore,
  LedgerSigner,
  LedgerStore,
  ProjectorLock,
  RateLimitStore,
  ReadModelStore,
  SnapshotStore,
  SubjectKeyStore,
  WebhookQueue,
  WebhookSecretBox,
  WebhookTransport,
} from '@app/application';
import { DnsHostResolver, HttpsWebhookTransport } from '@app/infrastructure/http';
import { MemoryRateLimitStore } from '@app/infrastructure/memory';
import {
  DEFAULT_READ_CACHE,
  SqliteApiKeyUsageStore,
  SqliteDashboardAccessStore,
  SqliteOperatorCredentialStore,
  SqliteEventStore,
  SqliteIdempotencyStore,
  SqliteLedgerStore,
  SqliteProjectorLock,
  SqliteReadModelStore,
  SqliteSnapshotStore,
  SqliteSubjectKeyStore,
  SqliteWebhookQueue,
} from '@app/infrastructure/sqlite';
import { AesGcmSecretBox } from '@app/infrastructure/webhooks';
import { Ed25519LedgerSigner } from '@app/infrastructure/ledger';
import type { MongoConnection } from '@app/infrastructure/mongodb';
import { AppConfig, ConfigError } from './config';

/**
 * The one place an adapter is chosen and built for each port (README, Configuration): event store
 * (EVENT_STORE), read models, snapshots, idempotency records and the webhook queue (READ_STORE),
 * subject keys (SUBJECT_KEY_STORE), rate-limit counters (RATE_LIMIT_STORE), and the webhook
 * deliveries' transport, host resolver and secret box. The modules that provide the ports call
 * these; no other file of apps/api imports an adapter (adapters.spec.ts). The scaled adapters are
 * loaded only when chosen, so the embedded default never loads the gRPC, MongoDB or Redis drivers.
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
    return MongoReadModelStore.connect(await mongoConnection(config));
  }
  // The projector writes the read models on a thread of its own, and, as their one writer, keeps
  // what it read until it changes it; a replica only reads them, as another process writes them.
  const projector = config.projections === 'inline';
  return new SqliteReadModelStore(join(config.dataDir, 'read-models.db'), {
    writer: projector ? 'worker' : 'inline',
    readCache: projector && config.readCache === 'on' ? DEFAULT_READ_CACHE : undefined,
  });
}

/**
 * How long a starting projector waits for the one before it to let go of the read models: the
 * length of a restart whose old process is still shutting down (its commands get up to 10 s, its
 * last batch a moment more), and longer than a MongoDB projector lease, so that the lease of a
 * projector that died runs out within it.
 */
const PROJECTOR_LOCK_WAIT_MS = 15_000;

/**
 * The read models have one writer, the projector (PROJECTIONS=inline, the default). A second
 * process started over the same read models without PROJECTIONS=external would write them too,
 * each at its own checkpoints: documents going back to older states until the slower one catches
 * up, a rebuild of one swapped under the other's batches. So the projector holds the read store's
 * projector lock while it runs, and a second one is refused at start once the wait is over:
 * DATA_DIR/projector.lock on the embedded default (the operating system drops it with its holder,
 * kill -9 included), a lease in the `projector_lease` collection on MongoDB (it runs out within
 * the wait once its holder stops renewing it). `onLost` is called if the lease is lost later.
 */
export async function acquireProjectorLock(
  config: AppConfig,
  logger: { warn(message: string): void },
  onLost: (reason: string) => void,
): Promise<HeldProjectorLock> {
  const lock = await openProjectorLock(config);
  const mongodb = config.readStore === 'mongodb';
  try {
    return await lock.acquire({
      waitMs: PROJECTOR_LOCK_WAIT_MS,
      onLost,
      onWait: () =>
        logger.warn(
          `Another process holds ${lock.description} (the projector of ${mongodb ? 'these MongoDB read models' : 'this DATA_DIR'}): waiting up to ${PROJECTOR_LOCK_WAIT_MS / 1000} s for it to stop`,
        ),
    });
  } catch (error) {
    if (!(error instanceof ProjectorLockHeldError)) throw error;
    throw new ConfigError(
      `another process is the projector of ${mongodb ? `the MongoDB read models (${error.holder})` : `DATA_DIR ${config.dataDir}`} (PROJECTIONS=inline, the default): ` +
        'the read models have one writer. Start this process with PROJECTIONS=external to add an API replica, ' +
        'or stop the other projector first',
    );
  }
}

async function openProjectorLock(config: AppConfig): Promise<ProjectorLock> {
  if (config.readStore === 'mongodb') {
    const { MongoProjectorLease } = await import('@app/infrastructure/mongodb');
    return new MongoProjectorLease(await mongoConnection(config));
  }
  return new SqliteProjectorLock(join(config.dataDir, 'projector.lock'));
}

const MONGO_KEYS_DB = 'workspace_operations_keys';

/** The process's MongoDB client per MONGODB_URL, while some adapter holds a handle of it. */
const mongoClients = new Map<string, Promise<MongoConnection>>();

/**
 * A handle on the one MongoDB client of this process, for one adapter: the read models,
 * snapshots, idempotency records, webhook queue, subject keys and projector lease share its pool
 * and its monitoring. Each adapter closes its handle with itself and the client closes with the
 * last one, so at shutdown it outlives every adapter. Its database is MONGODB_URL's path, else
 * `workspace_operations` (the subject keys keep a database of their own on the same client).
 */
async function mongoConnection(config: AppConfig): Promise<MongoConnection> {
  const url = config.mongodbUrl!;
  const held = await mongoClients.get(url)?.catch(() => null);
  if (held?.isOpen) return held.share();
  const { MongoConnection } = await import('@app/infrastructure/mongodb');
  const opening = MongoConnection.open(url);
  mongoClients.set(url, opening);
  opening.catch(() => mongoClients.delete(url));
  return opening;
}

/**
 * Crypto-shredding keys, in a database of their own: `SUBJECT_KEY_STORE` (by default the read
 * store's kind). DATA_DIR/keys.db keeps the erasure promise; MongoDB's oplog keeps a destroyed
 * key for its window (docs/privacy.md).
 */
export async function openSubjectKeyStore(config: AppConfig): Promise<SubjectKeyStore> {
  if (config.subjectKeyStore === 'mongodb') {
    const { MongoSubjectKeyStore } = await import('@app/infrastructure/mongodb');
    return MongoSubjectKeyStore.connect(await mongoConnection(config), MONGO_KEYS_DB);
  }
  const file = join(config.dataDir, 'keys.db');
  if (config.mongodbUrl && !existsSync(file)) await refuseToStrandMongoKeys(config);
  return new SqliteSubjectKeyStore(file);
}

/**
 * A deployment that kept its keys in MongoDB and now says SUBJECT_KEY_STORE=sqlite would start
 * on an empty keys.db: every member's personal data would read as erased. Refuse instead.
 */
async function refuseToStrandMongoKeys(config: AppConfig): Promise<void> {
  const { MongoSubjectKeyStore } = await import('@app/infrastructure/mongodb');
  const mongo = await MongoSubjectKeyStore.connect(await mongoConnection(config), MONGO_KEYS_DB);
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
    return MongoSnapshotStore.connect(await mongoConnection(config));
  }
  return new SqliteSnapshotStore(join(config.dataDir, 'snapshots.db'));
}

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
    return MongoIdempotencyStore.connect(await mongoConnection(config));
  }
  return new SqliteIdempotencyStore(join(config.dataDir, 'idempotency.db'));
}

/** The webhook queue follows the read store: embedded SQLite, or the MongoDB of the scaled deployment. */
export async function openWebhookQueue(config: AppConfig): Promise<WebhookQueue> {
  if (config.readStore === 'mongodb') {
    const { MongoWebhookQueue } = await import('@app/infrastructure/mongodb');
    return MongoWebhookQueue.connect(await mongoConnection(config));
  }
  return new SqliteWebhookQueue(join(config.dataDir, 'webhooks.db'));
}

/**
 * The dashboard's sign-in links and sessions follow the read store: MongoDB for the scaled
 * deployment (every instance must know every session), otherwise `DATA_DIR/dashboard.db`.
 */
export async function openDashboardAccessStore(config: AppConfig): Promise<DashboardAccessStore> {
  if (config.readStore === 'mongodb') {
    const { MongoDashboardAccessStore } = await import('@app/infrastructure/mongodb');
    return MongoDashboardAccessStore.connect(await mongoConnection(config));
  }
  return new SqliteDashboardAccessStore(join(config.dataDir, 'dashboard.db'));
}

/** Operator credentials follow the read store too (MongoDB, else `DATA_DIR/operators.db`). */
export async function openOperatorCredentialStore(config: AppConfig): Promise<OperatorCredentialStore> {
  if (config.readStore === 'mongodb') {
    const { MongoOperatorCredentialStore } = await import('@app/infrastructure/mongodb');
    return MongoOperatorCredentialStore.connect(await mongoConnection(config));
  }
  return new SqliteOperatorCredentialStore(join(config.dataDir, 'operators.db'));
}

/** API keys' last use follows the read store too (MongoDB, else `DATA_DIR/dashboard.db`). */
export async function openApiKeyUsageStore(config: AppConfig): Promise<ApiKeyUsageStore> {
  if (config.readStore === 'mongodb') {
    const { MongoApiKeyUsageStore } = await import('@app/infrastructure/mongodb');
    return MongoApiKeyUsageStore.connect(await mongoConnection(config));
  }
  return new SqliteApiKeyUsageStore(join(config.dataDir, 'dashboard.db'));
}

/** Kept in DATA_DIR beside the stores; every process of a deployment needs the same file. */
export const WEBHOOK_SECRET_KEY_FILE = 'webhook-secrets.key';

/** Webhook signing secrets sealed at rest with the key in DATA_DIR (made by the first process to start). */
export function openWebhookSecretBox(config: AppConfig): WebhookSecretBox {
  return AesGcmSecretBox.fromKeyFile(join(config.dataDir, WEBHOOK_SECRET_KEY_FILE));
}

/** Webhook targets' addresses from the system's DNS, checked before a subscription is saved and at each delivery. */
export function openHostResolver(): HostResolver {
  return new DnsHostResolver();
}

/** Deliveries over HTTP(S) to addresses the resolver gave; private ones only when WEBHOOK_ALLOW_PRIVATE_TARGETS allows. */
export function openWebhookTransport(options: {
  allowPrivateTargets: boolean;
  resolver: HostResolver;
}): WebhookTransport {
  return new HttpsWebhookTransport(options);
}

/**
 * The ledger (docs/ledger.md) follows the read store: DATA_DIR/ledger.db on the embedded default,
 * the `ledger_*` collections beside the read models on MongoDB. The projector, the log's one
 * writer, appends to the embedded file from a worker thread, which also reads and hashes the
 * events when they are in the embedded event store.
 */
export async function openLedgerStore(config: AppConfig): Promise<LedgerStore> {
  if (config.readStore === 'mongodb') {
    const { MongoLedgerStore } = await import('@app/infrastructure/mongodb');
    return MongoLedgerStore.connect(await mongoConnection(config));
  }
  const projector = config.projections !== 'external';
  return new SqliteLedgerStore(join(config.dataDir, 'ledger.db'), {
    writer: projector ? 'worker' : 'inline',
    ...(projector && config.eventStore === 'sqlite' ? { eventsFile: join(config.dataDir, 'events.db') } : {}),
  });
}

/** Kept in DATA_DIR beside the other keys; every process of a deployment needs the same file. */
export const LEDGER_SIGNING_KEY_FILE = 'ledger-signing.key';

/** The Ed25519 key that signs ledger heads (made by the first process to start). */
export function openLedgerSigner(config: AppConfig): LedgerSigner {
  return Ed25519LedgerSigner.fromKeyFile(join(config.dataDir, LEDGER_SIGNING_KEY_FILE));
}

/** SQLite's online backup of one file of the embedded stores, for `cli backup` (backup.ts). */
export async function backUpEmbeddedStoreFile(from: string, to: string): Promise<void> {
  const { backUpSqliteFile } = await import('@app/infrastructure/sqlite');
  await backUpSqliteFile(from, to);
}
