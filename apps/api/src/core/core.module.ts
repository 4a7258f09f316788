import { DynamicModule, Global, Logger, Module } from '@nestjs/common';
import {
  ALL_PROJECTORS,
  API_KEY_USAGE_STORE,
  ApiKeyAuthenticator,
  OPERATOR_CREDENTIAL_STORE,
  OperatorCredentials,
  ApiKeyUsageRecorder,
  CheckpointPoller,
  CLOCK,
  Clock,
  EVENT_STORE,
  EventSourcedRepository,
  EventStore,
  ID_GENERATOR,
  PersonalDataVault,
  PROCESS_HOST,
  ProjectionEngine,
  ProjectionMaintenance,
  READ_MODEL_STORE,
  READ_YOUR_WRITES,
  ReadModelStore,
  ReadYourWrites,
  SlotReconciler,
  SNAPSHOT_STORE,
  SnapshotStore,
  SUBJECT_KEY_STORE,
  timeOrderedIds,
  systemClock,
  UpcastingEventStore,
} from '@app/application';
import { eventSchemas } from '@app/domain';
import type { AppConfig } from '../config';
import { instrumentEventStore } from '../observability/instrumented-event-store';
import { nodeProcessHost } from './node-process-host';
import { ServiceMetrics } from '../observability/metrics';
import {
  openApiKeyUsageStore,
  openOperatorCredentialStore,
  openEventStore,
  openReadModelStore,
  openSnapshotStore,
  openSubjectKeyStore,
} from '../adapters';
import { APP_CONFIG } from '../tokens';
import { Lifecycle } from './lifecycle';

const SHARED = [
  APP_CONFIG,
  ServiceMetrics,
  EVENT_STORE,
  READ_MODEL_STORE,
  CLOCK,
  ID_GENERATOR,
  PROCESS_HOST,
  ProjectionEngine,
  ProjectionMaintenance,
  READ_YOUR_WRITES,
  EventSourcedRepository,
  ApiKeyAuthenticator,
  ApiKeyUsageRecorder,
  OperatorCredentials,
  SUBJECT_KEY_STORE,
  PersonalDataVault,
];

/**
 * The ports bound to their adapters, shared by every feature module (global): configuration,
 * event store, read models, clock, ids, the projection engine and the aggregate repository.
 */
@Global()
@Module({})
export class CoreModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CoreModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        ServiceMetrics,
        {
          provide: EVENT_STORE,
          // Every read of the app goes through the upcasting seam: events in their current shape (docs/events.md).
          useFactory: async (metrics: ServiceMetrics) =>
            new UpcastingEventStore(instrumentEventStore(await openEventStore(config), metrics), eventSchemas, {
              onUnknownType: (type) => metrics.unknownEventTypes.inc({ type }),
              logger: new Logger('Events'),
            }),
          inject: [ServiceMetrics],
        },
        { provide: READ_MODEL_STORE, useFactory: () => openReadModelStore(config) },
        { provide: SUBJECT_KEY_STORE, useFactory: () => openSubjectKeyStore(config) },
        { provide: SNAPSHOT_STORE, useFactory: () => openSnapshotStore(config) },
        PersonalDataVault,
        { provide: CLOCK, useValue: systemClock },
        { provide: ID_GENERATOR, useValue: timeOrderedIds },
        { provide: PROCESS_HOST, useValue: nodeProcessHost },
        {
          provide: ProjectionEngine,
          useFactory: (events: EventStore, read: ReadModelStore) =>
            new ProjectionEngine(events, read, ALL_PROJECTORS, new Logger('Projections'), {
              readYourWritesTimeoutMs: config.readYourWritesTimeoutMs,
            }),
          inject: [EVENT_STORE, READ_MODEL_STORE],
        },
        {
          provide: READ_YOUR_WRITES,
          useFactory: (engine: ProjectionEngine, read: ReadModelStore) =>
            config.projections === 'external'
              ? new CheckpointPoller(
                  read,
                  ALL_PROJECTORS.map((p) => p.name),
                  {
                    intervalMs: 5,
                    timeoutMs: config.readYourWritesTimeoutMs,
                  },
                )
              : engine,
          inject: [ProjectionEngine, READ_MODEL_STORE],
        },
        {
          provide: ProjectionMaintenance,
          useFactory: (engine: ProjectionEngine, events: EventStore, read: ReadModelStore) =>
            new ProjectionMaintenance(engine, events, read, {
              role: config.projections === 'external' ? 'replica' : 'projector',
            }),
          inject: [ProjectionEngine, EVENT_STORE, READ_MODEL_STORE],
        },
        {
          provide: EventSourcedRepository,
          useFactory: (events: EventStore, clock: Clock, readModels: ReadYourWrites, snapshots: SnapshotStore) =>
            new EventSourcedRepository(events, clock, readModels, snapshots, new Logger('Aggregates')),
          inject: [EVENT_STORE, CLOCK, READ_YOUR_WRITES, SNAPSHOT_STORE],
        },
        { provide: API_KEY_USAGE_STORE, useFactory: () => openApiKeyUsageStore(config) },
        ApiKeyUsageRecorder,
        ApiKeyAuthenticator,
        { provide: OPERATOR_CREDENTIAL_STORE, useFactory: () => openOperatorCredentialStore(config) },
        OperatorCredentials,
        {
          provide: SlotReconciler,
          useFactory: (repository: EventSourcedRepository, read: ReadModelStore, clock: Clock) =>
            new SlotReconciler(repository, read, clock, { logger: new Logger('SlotReconciler') }),
          inject: [EventSourcedRepository, READ_MODEL_STORE, CLOCK],
        },
        Lifecycle,
      ],
      exports: SHARED,
    };
  }
}
